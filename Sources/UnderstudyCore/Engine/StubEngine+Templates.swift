/// Rendering a `"template": true` response for one request; static responses never come here.
extension StubEngine {
    func render(_ template: ResponseTemplate, _ response: StubResponse, _ match: MatchContext,
                headers: inout HTTPHeaders, body: inout [UInt8], streaming: inout ResponseStreaming?) {
        let context = TemplateContext(match: match, serverURL: Self.baseURL(of: match.request),
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
