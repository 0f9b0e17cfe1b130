import UnderstudyHTTP

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
    /// Header fields set on the forwarded request (`setHeaders`): each replaces the client's
    /// fields of that name, or is added (WireMock's `additionalProxyRequestHeaders` does the same).
    public var setHeaders = HTTPHeaders()
    /// Header names taken off the forwarded request (`removeHeaders`, any case).
    public var removeHeaders: [String] = []
    /// Header fields added to the upstream's answer (`addResponseHeaders`), beside its own fields
    /// of the same name (WireMock's `headers` beside `proxyBaseUrl` do the same).
    public var addResponseHeaders = HTTPHeaders()

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
        var headers = UpstreamRequest.forwardedHeaders(request.headers)
        if !removeHeaders.isEmpty || !setHeaders.fields.isEmpty {
            for name in removeHeaders { headers.removeAll(named: name) }
            for field in setHeaders.fields { headers.removeAll(named: field.name) }
            for field in setHeaders.fields { headers.append(name: field.name, value: field.value) }
        }
        return UpstreamRequest(
            method: request.method, url: upstreamURL(path: request.path, query: request.query),
            headers: headers, body: request.body, timeoutMs: timeoutMs, upstream: to,
            addResponseHeaders: addResponseHeaders)
    }
}
