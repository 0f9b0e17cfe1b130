import UnderstudyHTTP
import UnderstudyStubFormat

/// One of a response's `webhooks`, compiled: a request the daemon sends after that response, its
/// URL, header values and body templates of the triggering request and the sent response
/// (docs/webhooks.md).
public struct WebhookSetting: Sendable {
    /// A string of the webhook: as written, or a template rendered per delivery.
    package enum Text: Sendable {
        case literal(String)
        case template(TemplateText)

        func render(_ context: TemplateContext) -> String {
            switch self {
            case .literal(let text): return text
            case .template(let template): return template.render(context)
            }
        }
    }

    /// The body: none, `body` text, a `json` value (its strings templates where they have tags), or
    /// bytes sent as they are (WireMock's `base64Body`).
    package enum Body: Sendable {
        case none
        case text(Text)
        case json(JSONTemplate)
        case bytes([UInt8])
    }

    /// The method (`POST` unless the stub names another).
    public var method = "POST"
    /// A method that is a template (WireMock's webhook `method` may be one): rendered per
    /// delivery, in place of ``method``.
    package var methodTemplate: TemplateText? { didSet { settle() } }
    /// The target URL (`url`); nil sends it to the world's default (``WebhookDefaults``).
    package var url: Text? { didSet { settle() } }
    /// The header fields, in the order written; their values may be templates.
    package var headers: [(name: String, value: Text)] = [] { didSet { settle() } }
    /// The body.
    package var body: Body = .none { didSet { settle() } }
    /// Whether the request may be rendered at its due time instead of when the response is sent,
    /// with the same result: its URL is no template (so the allow-list's verdict is known when it
    /// is triggered, as when rendered then) and none of its templates draws random values (whose
    /// order in the seeded stream rendering later would change). Kept by the setters above: it is
    /// read for every triggering request (issue 42: what a webhook costs that request).
    package private(set) var rendersLater = true
    /// Milliseconds after the response is sent before the webhook is (`delayMs`), on the world's clock.
    public var delayMs = 0.0
    /// A random delay added to ``delayMs``, drawn per delivery from the engine's seeded generator
    /// (`delayMs` as a distribution, or WireMock's `delay`); nil for none.
    public var delayDistribution: DelayDistribution?
    /// Milliseconds the receiver has to answer (`timeoutMs`), connecting included.
    public var timeoutMs = WebhookSetting.defaultTimeoutMs
    /// How each attempt is signed (`signing`); nil sends it unsigned.
    public var signing: WebhookSignature?
    /// Milliseconds before each retry after a failed attempt (`retry`), in order; empty: none.
    public var retryDelaysMs: [Double] = []

    /// 10 seconds, the default `timeoutMs` (what Stripe and GitHub give a receiver, roughly).
    public static let defaultTimeoutMs = 10_000.0

    package init(url: Text?) {
        self.url = url
        settle()
    }

    /// Works out ``rendersLater`` again after a change.
    private mutating func settle() {
        func draws(_ text: Text) -> Bool {
            if case .template(let template) = text { return template.drawsRandom }
            return false
        }
        var urlIsTemplate = false
        if case .template? = url { urlIsTemplate = true }
        var drawsRandom = methodTemplate?.drawsRandom ?? false
        drawsRandom = drawsRandom || headers.contains { draws($0.value) }
        switch body {
        case .none, .bytes: break
        case .text(let text): drawsRandom = drawsRandom || draws(text)
        case .json(let json): drawsRandom = drawsRandom || json.drawsRandom
        }
        rendersLater = !urlIsTemplate && !drawsRandom
    }

    /// The target of a webhook whose `url` is no template: that URL, or `defaultURL` without one
    /// (empty without either). Only for ``rendersLater`` webhooks, whose URL is known without rendering.
    package func plainURL(defaultURL: String?) -> String {
        switch url {
        case .literal(let text)?: return text
        case .template?:
            assertionFailure("a templated `url` is rendered with the request, never later")
            return ""
        case nil: return defaultURL ?? ""
        }
    }

    /// The request to send for `request`, answered with `sent`: URL, headers and body rendered.
    /// A JSON body gets `Content-Type: application/json` unless the webhook sets one. Without a
    /// `url` it goes to `defaultURL`, or nowhere (an empty URL, which the dispatcher fails as `no-target`).
    package func render(_ context: TemplateContext, defaultURL: String? = nil) -> UpstreamRequest {
        let target = url?.render(context) ?? defaultURL ?? ""
        var fields = HTTPHeaders()
        for header in headers {
            // Request data must not end a header early: line breaks and NUL become spaces.
            let value = header.value.render(context)
            fields.append(
                name: header.name,
                value: String(
                    decoding: value.utf8.map { $0 == 0x0A || $0 == 0x0D || $0 == 0 ? 0x20 : $0 }, as: UTF8.self))
        }
        var bytes: [UInt8] = []
        switch body {
        case .none: break
        case .text(let text): bytes = Array(text.render(context).utf8)
        case .bytes(let given): bytes = given
        case .json(let json):
            let writer = JSONWriter(capacity: 256)
            json.write(into: writer, context)
            bytes = writer.bytes
            if !fields.contains("Content-Type") { fields.append(name: "Content-Type", value: "application/json") }
        }
        var verb = method
        if let methodTemplate {
            let rendered = methodTemplate.render(context).filter { !$0.isWhitespace }
            verb = rendered.isEmpty ? "GET" : rendered
        }
        return UpstreamRequest(
            method: verb, url: target, headers: fields, body: bytes, timeoutMs: timeoutMs, upstream: target)
    }
}

/// The retry schedules `retry` names and computes.
public enum WebhookRetrySchedule {
    /// Svix's published schedule after the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h
    /// (docs.svix.com/retries).
    public static let svix: [Double] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]

    /// The delays of `preset`.
    public static func delays(_ preset: StubFormat.RetryPreset) -> [Double] {
        switch preset {
        case .svix: return svix
        case .none: return []
        }
    }

    /// `attempts` delays from `initialMs`, each `factor` times the one before, capped at `maxMs`.
    public static func exponential(initialMs: Double, factor: Double, maxMs: Double, attempts: Int) -> [Double] {
        var delays: [Double] = []
        var next = initialMs
        for _ in 0..<attempts {
            delays.append(min(next, maxMs))
            next *= factor
        }
        return delays
    }
}

/// Where webhooks may go: loopback addresses always, other hosts only when the daemon was started
/// with `--webhook-allow HOST` (``allow(_:)``, installed by the CLI before any stub loads, as
/// ``XMLSupport`` is). A stub whose literal `url` names another host fails to load; a templated
/// URL that renders to one is refused when it is sent, and journaled so.
public enum WebhookTargets {
    nonisolated(unsafe) private static var allowed: Set<String> = []

    /// Allows webhooks to `hosts` (names or addresses, any case) besides loopback.
    public static func allow(_ hosts: [String]) {
        allowed.formUnion(hosts.map { $0.lowercased() })
    }

    /// The hosts allowed besides loopback.
    public static var allowedHosts: [String] { allowed.sorted() }

    /// Why `url` may not be a webhook's target, or nil when it may: an http:// or https:// URL
    /// whose host is loopback (`127.x.x.x`, `::1`, `localhost`) or allowed.
    public static func problem(_ url: String) -> String? {
        let lower = url.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lower.hasPrefix($0) }) else {
            return "a webhook's `url` must be an http:// or https:// URL, found `\(url)`"
        }
        if url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return "a webhook's `url` may not contain spaces or control characters"
        }
        var authority = lower.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host: Substring
        if authority.hasPrefix("[") {
            host = authority.dropFirst().prefix { $0 != "]" }
        } else {
            host = authority.prefix { $0 != ":" }
        }
        if host.isEmpty { return "a webhook's `url` has no host: `\(url)`" }
        if isLoopback(host) || allowed.contains(String(host)) { return nil }
        return "webhooks go to loopback addresses only; `\(host)` is not one "
            + "(start the daemon with `--webhook-allow \(host)` to allow it)"
    }

    private static func isLoopback(_ host: Substring) -> Bool {
        if host == "localhost" || host == "::1" || host.hasSuffix(".localhost") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
