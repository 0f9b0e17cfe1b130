import UnderstudyHTTP

/// A response's `webhooks`: rendered from the request and the answer as it stands, then handed
/// to the world's ``WebhookDispatcher``, due the response's own delay plus the webhook's after now,
/// so each goes out after the response. Only responses with webhooks come here.
extension StubEngine {
    @inline(never)
    func sendWebhooks(_ hooks: [WebhookSetting], _ stubID: String, _ request: HTTPRequest, _ answer: HTTPResponse) {
        let sent = SentResponse(status: answer.status, headers: answer.headers, body: answer.body)
        let defaults = configuration.webhookDefaults
        let requests = templates.withContext(
            request, sent: sent, now: clock.now.timeIntervalSince1970, seq: journal.nextSeq
        ) { context in hooks.map { $0.render(context, defaultURL: defaults?.url) } }
        for (hook, outbound) in zip(hooks, requests) {
            webhooks.schedule(
                outbound, signing: hook.signing, defaults: defaults, retryDelaysMs: hook.retryDelaysMs,
                stubID: stubID, delayMs: answer.delayMs + webhookDelay(hook))
        }
    }

    /// Sends `hook` with no triggering request (`POST /__admin/webhooks`, the role of `stripe
    /// trigger`): templated from `request` (the admin call), signed and retried as from a stub.
    func fireWebhook(_ hook: WebhookSetting, for request: HTTPRequest) -> WebhookDelivery {
        let defaults = configuration.webhookDefaults
        let outbound = templates.withContext(
            request, sent: nil, now: clock.now.timeIntervalSince1970, seq: journal.nextSeq
        ) { hook.render($0, defaultURL: defaults?.url) }
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
