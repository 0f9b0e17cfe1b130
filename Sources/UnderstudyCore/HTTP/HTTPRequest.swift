/// A request as the transport received it. The engine sees only this value, never a socket,
/// which is what lets the whole engine be tested without a network.
public struct HTTPRequest: Sendable {
    /// The method exactly as sent (`GET`, `PATCH`, or any custom token).
    public var method: String
    /// The path as sent, still percent-encoded, without the query string.
    public var path: String
    /// The raw query string after `?`, or `nil` when the target had no `?`.
    public var query: String?
    /// Header fields in arrival order; repeated names are kept.
    public var headers: HTTPHeaders
    /// The request body bytes (empty when there was none).
    public var body: [UInt8]
    /// Whether it arrived over TLS (the HTTPS listener); the journal then records `"scheme": "https"`.
    public var isSecure = false

    /// Creates a request from its parts.
    public init(method: String, path: String, query: String? = nil, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Creates a request from a request target such as `/posts?page=1`, splitting off the query.
    public init(method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        if let mark = target.firstIndex(of: "?") {
            self.init(method: method, path: String(target[..<mark]),
                      query: String(target[target.index(after: mark)...]), headers: headers, body: body)
        } else {
            self.init(method: method, path: target, query: nil, headers: headers, body: body)
        }
    }
}
