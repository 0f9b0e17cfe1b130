import UnderstudyHTTP

/// A response's `webhooks`, handed to the world's ``WebhookDispatcher``, due the response's own
/// delay plus the webhook's after now, so each goes out after the response. Only responses with
/// webhooks come here. A webhook is rendered from the request and the answer as it stands: now,
/// or (``WebhookSetting/rendersLater``) when it is due, from what is kept now, with the same result.
extension StubEngine {
    @inline(never)
    func sendWebhooks(_ hooks: [WebhookSetting], _ stubID: String, _ request: HTTPRequest, _ answer: HTTPResponse) {
        let defaults = configuration.webhookDefaults
        // As the template context reads the clock (`Date`'s round trip included), so a webhook
        // rendered later sees the very `now` it would have seen here.
        let now = clock.now.timeIntervalSince1970
        let seq = journal.nextSeq
        for index in hooks.indices {
            let rendering: WebhookDelivery.Rendering
            let url: String
            if hooks[index].rendersLater {
                url = hooks[index].plainURL(defaultURL: defaults?.url)
                rendering = .kept(
                    KeptWebhook(
                        hooks: hooks, index: index, request: request, answer: answer,
                        listenerURL: templates.listenerURL(for: request), now: now, seq: seq,
                        defaultURL: defaults?.url))
            } else {
                let sent = SentResponse(status: answer.status, headers: answer.headers, body: answer.body)
                let outbound = templates.withContext(request, sent: sent, now: now, seq: seq) {
                    hooks[index].render($0, defaultURL: defaults?.url)
                }
                url = outbound.url
                rendering = .rendered(outbound)
            }
            webhooks.schedule(
                rendering, url: url, signing: hooks[index].signing, defaults: defaults,
                retryDelaysMs: hooks[index].retryDelaysMs, stubID: stubID,
                delayMs: answer.delayMs + webhookDelay(hooks[index]))
        }
    }

    /// Sends `hook` with no triggering request (`POST /__admin/webhooks`, the role of `stripe
    /// trigger`): templated from `request` (the admin call), signed and retried as from a stub.
    func fireWebhook(_ hook: WebhookSetting, for request: HTTPRequest) -> WebhookDelivery {
        let defaults = configuration.webhookDefaults
        let outbound = templates.withContext(
            request, sent: nil, now: clock.now.timeIntervalSince1970, seq: journal.nextSeq
        ) {
            hook.render($0, defaultURL: defaults?.url)
        }
        return webhooks.schedule(
            outbound, signing: hook.signing, defaults: defaults, retryDelaysMs: hook.retryDelaysMs, stubID: nil,
            delayMs: webhookDelay(hook))
    }

    /// The webhook's `delayMs`, plus a draw from its distribution (from the generator responses'
    /// random delays use, so `--seed` repeats both).
    private func webhookDelay(_ hook: WebhookSetting) -> Double {
        guard let distribution = hook.delayDistribution else { return hook.delayMs }
        return hook.delayMs + distribution.sample(&delayGenerator)
    }

    /// The world's webhook deliveries, oldest first (`GET /__admin/webhooks`).
    public var webhookDeliveries: [WebhookDelivery] { webhooks.deliveries }
}
