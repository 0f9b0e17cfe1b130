/// Answering a `"template": true` response (rendered by ``TemplateRenderer``) or a paced one;
/// static responses never come here.
extension StubEngine {
    /// Never inlined: kept out of `serve`, so the static path's code (and what the optimizer
    /// inlines into it) stays as it was.
    @inline(never)
    func dynamicAnswer(
        _ response: StubResponse, _ stubID: String, _ responseIndex: Int, _ request: HTTPRequest,
        headers: HTTPHeaders, delayMs: Double, transition: ScenarioTransition?
    ) -> (HTTPResponse, JournalRecord) {
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
            request: request, matched: true, stubID: stubID, responseIndex: responseIndex,
            scenario: transition, rateLimited: false, delayMs: delayMs)
        record.stream = streaming?.kind
        var answer = HTTPResponse(
            status: status, headers: headers, body: body,
            delayMs: delayMs, fault: response.fault, stubID: stubID, reason: response.statusMessage,
            faultParameters: response.faultParameters)
        answer.streaming = streaming
        return (answer, record)
    }
}
