/// A response's `proxy`: answer by forwarding the request to an upstream server and passing its
/// answer back (status, headers and body as they come, redirects not followed).
public struct ProxySetting: Sendable, Equatable {
    /// The upstream's base URL (`https://api.example.com`, perhaps with a base path), without a
    /// trailing `/`.
    public var to: String
    /// A path prefix taken off the request's path before it is appended to ``to`` (`/v1`): a
    /// request for `/v1/users` goes to `to + "/users"`. Only a whole leading segment is taken.
    public var stripPrefix: String?
    /// Milliseconds the whole upstream exchange may take (connecting, the answer and its body)
    /// before the client gets a `502`.
    public var timeoutMs: Double

    /// 30 seconds, the default `timeoutMs`.
    public static let defaultTimeoutMs = 30_000.0

    /// Creates a setting; `to` loses any trailing `/`.
    public init(to: String, stripPrefix: String? = nil, timeoutMs: Double = ProxySetting.defaultTimeoutMs) {
        var base = to
        while base.hasSuffix("/") { base.removeLast() }
        self.to = base
        self.stripPrefix = stripPrefix
        self.timeoutMs = timeoutMs
    }

    /// The upstream URL for a request's path and query (both as sent, still percent-encoded).
    public func upstreamURL(path: String, query: String?) -> String {
        var rest = path
        if let prefix = stripPrefix, !prefix.isEmpty, prefix != "/" {
            let trimmed = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
            if path == trimmed {
                rest = ""
            } else if path.hasPrefix(trimmed + "/") {
                rest = String(path.dropFirst(trimmed.count))
            }
        }
        if rest.isEmpty && to.split(separator: "/", omittingEmptySubsequences: false).count <= 3 {
            rest = "/"  // `http://host` alone has no path: the origin's root
        }
        var url = to + rest
        if let query {
            url += "?"
            url += query
        }
        return url
    }

    /// What to send upstream for `request`.
    public func upstreamRequest(for request: HTTPRequest) -> UpstreamRequest {
        UpstreamRequest(
            method: request.method, url: upstreamURL(path: request.path, query: request.query),
            headers: UpstreamRequest.forwardedHeaders(request.headers), body: request.body, timeoutMs: timeoutMs,
            upstream: to)
    }
}
