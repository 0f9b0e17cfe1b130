import UnderstudyHTTP

/// Answering a `"template": true` response (rendered by ``TemplateRenderer``), a paced one, a
/// proxied one (the transport forwards ``HTTPResponse/proxy``) or one with webhooks;
/// static responses never come here.
extension StubEngine {
    /// Never inlined: kept out of `serve`, so the static path's code (and what the optimizer
    /// inlines into it) stays as it was.
    @inline(never)
    func dynamicAnswer(
        _ response: StubResponse, _ stubID: String, _ responseIndex: Int, _ request: HTTPRequest,
        headers: HTTPHeaders, delayMs: Double, transition: ScenarioTransition?, webhooks: [WebhookPlan]?,
        arrival: UInt64
    ) -> (HTTPResponse, JournalRecord) {
        if let proxy = response.proxy {
            // 502 is what a caller without a transport (``handle(_:)``) gets: only a transport forwards.
            var answer = HTTPResponse(
                status: 502, headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: Array("understudy: stub \(stubID) proxies to \(proxy.to); only the daemon forwards\n".utf8),
                delayMs: delayMs, stubID: stubID)
            answer.proxy = proxy.upstreamRequest(for: request)
            let record = JournalRecord(
                request: request, matched: true, rateLimited: false, stubID: stubID, responseIndex: responseIndex,
                scenario: transition, delayMs: delayMs)
            return (answer, record)
        }
        var headers = headers
        var body = response.body
        var streaming = response.streaming
        var status = response.status
        if let template = response.template {
            templates.render(
                template, request, now: clock.now.timeIntervalSince1970, seq: journal.nextSeq,
                headers: &headers, body: &body, status: &status, streaming: &streaming)
        }
        var record = JournalRecord(
            request: request, matched: true, rateLimited: false, stubID: stubID, responseIndex: responseIndex,
            scenario: transition, delayMs: delayMs)
        record.stream = streaming?.kind
        var answer = HTTPResponse(
            status: status, headers: headers, body: body,
            delayMs: delayMs, fault: response.fault, stubID: stubID, reason: response.statusMessage,
            faultParameters: response.faultParameters)
        answer.streaming = streaming
        answer.compression = response.compression
        if let webhooks {
            sendWebhooks(webhooks, request, answer, arrival: arrival)
        }
        return (answer, record)
    }
}
