/// Rendering a `"template": true` response for one request and answering a paced one; static
/// responses never come here.
extension StubEngine {
    /// Never inlined: kept out of `serve`, so the static path's code (and what the optimizer
    /// inlines into it) stays as it was.
    @inline(never)
    func dynamicAnswer(_ response: StubResponse, _ stubID: String, _ responseIndex: Int, _ request: HTTPRequest,
                       headers: HTTPHeaders, delayMs: Double, transition: ScenarioTransition?) -> (HTTPResponse, JournalRecord) {
        var headers = headers
        var body = response.body
        var streaming = response.streaming
        if let template = response.template {
            render(template, response, request, headers: &headers, body: &body, streaming: &streaming)
        }
        var record = JournalRecord(request: request, matched: true, stubID: stubID, responseIndex: responseIndex,
                                   scenario: transition, rateLimited: false, delayMs: delayMs)
        record.stream = streaming?.kind
        var answer = HTTPResponse(status: response.status, headers: headers, body: body,
                                  delayMs: delayMs, fault: response.fault, stubID: stubID, reason: response.statusMessage)
        answer.streaming = streaming
        return (answer, record)
    }

    /// Takes the request, not the engine's `MatchContext`: a template context keeps what it is
    /// given, and a match context that escaped into it could no longer live on the stack, which
    /// would cost every static request an allocation.
    func render(_ template: ResponseTemplate, _ response: StubResponse, _ request: HTTPRequest,
                headers: inout HTTPHeaders, body: inout [UInt8], streaming: inout ResponseStreaming?) {
        // `{{server.url}}` is the URL this request arrived on: the HTTPS one for a TLS request.
        let arrivedOn = request.isSecure ? (secureServerURL ?? serverURL) : serverURL
        let context = TemplateContext(match: MatchContext(request), listenerURL: arrivedOn ?? Self.baseURL(fromHostOf: request),
                                      now: configuration.clock.now.timeIntervalSince1970,
                                      seq: journal.nextSeq, generator: templateGenerator)
        template.render(response, into: &headers, body: &body, stream: &streaming, context)
        templateGenerator = context.generator
    }

    /// For an engine no transport serves (a test): the `Host` header's URL.
    static func baseURL(fromHostOf request: HTTPRequest) -> String {
        "http://" + (request.headers["Host"] ?? "localhost")
    }
}
