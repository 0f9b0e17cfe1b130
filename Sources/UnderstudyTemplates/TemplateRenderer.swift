import UnderstudyHTTP

/// Renders `"template": true` responses for an engine: the URLs `{{server.url}}` names and the
/// generator random values come from, kept across requests. Its own type beside the engine, which
/// only calls it for a templated response (static responses never reach it).
package struct TemplateRenderer {
    /// The base URL requests arrive on, set by the transport (see ``UnderstudyResponder/serverURL``).
    package var serverURL: String?
    /// The base URL TLS requests arrive on (`https://…`), set by the transport's HTTPS listener.
    package var secureServerURL: String?
    /// Draws template random values (`random.uuid`, …); seeded apart from the engine's delays, so
    /// adding a delay distribution does not change a template's values.
    package var generator: SeededGenerator

    package init(seed: UInt64) {
        generator = SeededGenerator(seed: seed ^ 0x7465_6D70_6C61_7465)
    }

    /// Renders `template` for `request`, answered at `now` (seconds since 1970) as journal entry
    /// `seq`. Takes the request, not the engine's `MatchContext`: a template context keeps what it
    /// is given, and a match context that escaped into it could no longer live on the stack, which
    /// would cost every static request an allocation.
    package mutating func render(
        _ template: ResponseTemplate, _ request: HTTPRequest, now: Double, seq: Int,
        headers: inout HTTPHeaders, body: inout [UInt8], status: inout Int, streaming: inout ResponseStreaming?
    ) {
        // `{{server.url}}` is the URL this request arrived on: the HTTPS one for a TLS request.
        let arrivedOn = request.isSecure ? (secureServerURL ?? serverURL) : serverURL
        let context = TemplateContext(
            match: MatchContext(request), listenerURL: arrivedOn ?? Self.baseURL(fromHostOf: request),
            now: now, seq: seq, generator: generator)
        template.render(into: &headers, body: &body, status: &status, stream: &streaming, context)
        generator = context.generator
    }

    /// Calls `body` with a context for `request`, answered with `sent` (a webhook's templates read
    /// it as `response.…`), and keeps the generator's draws.
    package mutating func withContext<Result>(
        _ request: HTTPRequest, sent: SentResponse?, now: Double, seq: Int, _ body: (TemplateContext) -> Result
    ) -> Result {
        let context = TemplateContext(
            match: MatchContext(request), listenerURL: listenerURL(for: request) ?? Self.baseURL(fromHostOf: request),
            now: now, seq: seq, generator: generator, sent: sent)
        let result = body(context)
        generator = context.generator
        return result
    }

    /// The URL `request` arrived on as the transport set it (the HTTPS one for a TLS request);
    /// nil for an engine no transport serves.
    package func listenerURL(for request: HTTPRequest) -> String? {
        request.isSecure ? (secureServerURL ?? serverURL) : serverURL
    }

    /// Calls `body` with a context as ``withContext(_:sent:now:seq:_:)`` makes it, from what was
    /// kept when the request was answered (`listenerURL` from ``listenerURL(for:)``): for templates
    /// that draw no random values (``TemplateText/drawsRandom``), which then render the same later.
    package static func withKeptContext<Result>(
        _ request: HTTPRequest, sent: SentResponse?, listenerURL: String?, now: Double, seq: Int,
        _ body: (TemplateContext) -> Result
    ) -> Result {
        let context = TemplateContext(
            match: MatchContext(request), listenerURL: listenerURL ?? Self.baseURL(fromHostOf: request),
            now: now, seq: seq, generator: SeededGenerator(seed: 0), sent: sent)
        return body(context)
    }

    /// For an engine no transport serves (a test): the `Host` header's URL.
    package static func baseURL(fromHostOf request: HTTPRequest) -> String {
        "http://" + (request.headers["Host"] ?? "localhost")
    }
}
