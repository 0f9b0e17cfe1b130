/// Rendering a `"template": true` response for one request; static responses never come here.
extension StubEngine {
    /// Takes the request, not the engine's `MatchContext`: a template context keeps what it is
    /// given, and a match context that escaped into it could no longer live on the stack, which
    /// would cost every static request an allocation.
    func render(_ template: ResponseTemplate, _ response: StubResponse, _ request: HTTPRequest,
                headers: inout HTTPHeaders, body: inout [UInt8], streaming: inout ResponseStreaming?) {
        let context = TemplateContext(match: MatchContext(request), serverURL: Self.baseURL(of: request),
                                      now: configuration.clock.now.timeIntervalSince1970,
                                      seq: journal.nextSeq, generator: templateGenerator)
        template.render(response, into: &headers, body: &body, stream: &streaming, context)
        templateGenerator = context.generator
    }

    /// The transport's base URL, or for a request that did not come through one (a test) the
    /// `Host` header's.
    static func baseURL(of request: HTTPRequest) -> String {
        if let url = request.baseURL { return url }
        return "http://" + (request.headers["Host"] ?? "localhost")
    }
}
