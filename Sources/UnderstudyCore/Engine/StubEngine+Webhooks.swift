import UnderstudyHTTP

/// A response's `webhooks` (their ``WebhookPlan``s, from the stub's box), handed to the world's
/// ``WebhookDispatcher``, due the response's own delay plus the webhook's after now, so each goes
/// out after the response. Only responses with webhooks come here. A webhook is rendered from the
/// request and the answer as it stands: now, or (``WebhookSetting/rendersLater``: its plan knows its
/// target) when it is due, from what is kept now, with the same result.
extension StubEngine {
    /// Schedules `plans` (the webhooks of the response `answer`) for `request`, which arrived at
    /// `arrival` (the world's monotonic reading).
    @inline(never)
    func sendWebhooks(_ plans: [WebhookPlan], _ request: HTTPRequest, _ answer: HTTPResponse, arrival: UInt64) {
        // As the template context reads the clock (`Date`'s round trip included), so a webhook
        // rendered later sees the very `now` it would have seen here.
        let now = clock.now.timeIntervalSince1970
        let seq = recorder.journal.nextSeq
        for plan in plans {
            if plan.rendersLater {
                let kept = KeptWebhook(
                    request: request, answer: answer, listener: webhooks.listener, now: now, seq: seq)
                webhooks.schedule(
                    plan, .kept(kept), url: nil, delayMs: answer.delayMs + webhookDelay(plan), arrival: arrival)
            } else {
                let sent = SentResponse(status: answer.status, headers: answer.headers, body: answer.body)
                let outbound = templates.withContext(request, sent: sent, now: now, seq: seq) {
                    plan.setting.render($0, defaultURL: plan.defaultURL)
                }
                webhooks.schedule(
                    plan, .rendered(outbound), url: outbound.url, delayMs: answer.delayMs + webhookDelay(plan),
                    arrival: arrival)
            }
        }
    }

    /// Sends `hook` with no triggering request (`POST /__admin/webhooks`, the role of `stripe
    /// trigger`): templated from `request` (the admin call), signed and retried as from a stub.
    func fireWebhook(_ hook: WebhookSetting, for request: HTTPRequest) -> WebhookDelivery {
        let plan = WebhookPlan(hook, stubID: nil, defaults: configuration.webhookDefaults)
        let outbound = templates.withContext(
            request, sent: nil, now: clock.now.timeIntervalSince1970, seq: journal.nextSeq
        ) { hook.render($0, defaultURL: plan.defaultURL) }
        return webhooks.schedule(plan, .rendered(outbound), url: outbound.url, delayMs: webhookDelay(plan))
    }

    /// The webhook's `delayMs`, plus a draw from its distribution (from the generator responses'
    /// random delays use, so `--seed` repeats both).
    private func webhookDelay(_ plan: WebhookPlan) -> Double {
        guard plan.hasDelayDistribution, let distribution = plan.setting.delayDistribution else { return plan.delayMs }
        return plan.delayMs + distribution.sample(&delayGenerator)
    }

    /// The world's webhook deliveries, oldest first (`GET /__admin/webhooks`).
    public var webhookDeliveries: [WebhookDelivery] { webhooks.deliveries }
}
