/// A request as the transport received it. The engine sees only this value, never a socket,
/// which is what lets the whole engine be tested without a network.
///
/// The fields live in one shared, copy-on-write box (``CopyOnWriteFields``): a request is copied
/// several times on its way (into the match context, the journal record, the journal entry), and
/// copying a box is one retain where copying five fields retained and later released each string
/// and array (about 260 instructions a copy, measured).
public struct HTTPRequest: Sendable {
    /// The method exactly as sent (`GET`, `PATCH`, or any custom token).
    @inlinable
    public var method: String {
        get { storage.fields.method }
        set { storage.modify { $0.method = newValue } }
    }
    /// The path as sent, still percent-encoded, without the query string.
    @inlinable
    public var path: String {
        get { storage.fields.path }
        set { storage.modify { $0.path = newValue } }
    }
    /// The raw query string after `?`, or `nil` when the target had no `?`.
    @inlinable
    public var query: String? {
        get { storage.fields.query }
        set { storage.modify { $0.query = newValue } }
    }
    /// Header fields in arrival order; repeated names are kept.
    @inlinable
    public var headers: HTTPHeaders {
        get { storage.fields.headers }
        set { storage.modify { $0.headers = newValue } }
    }
    /// The header fields exactly as received, when they differ from ``headers``: over HTTP/2, the
    /// split `cookie` fields a client sent, which ``headers`` carries joined into one (RFC 9113
    /// §8.2.3) for matching, templates and proxying. The journal records these; nil (the usual
    /// case) when ``headers`` is what was received.
    @inlinable
    public var receivedHeaders: HTTPHeaders? {
        get { storage.fields.receivedHeaders }
        set { storage.modify { $0.receivedHeaders = newValue } }
    }
    /// The request body bytes (empty when there was none).
    @inlinable
    public var body: [UInt8] {
        get { storage.fields.body }
        set { storage.modify { $0.body = newValue } }
    }
    /// Whether it arrived over TLS (the HTTPS listener); the journal then records `"scheme": "https"`.
    @inlinable
    public var isSecure: Bool {
        get { storage.fields.isSecure }
        set { storage.modify { $0.isSecure = newValue } }
    }

    /// The HTTP/2 stream it arrived on; 0 for HTTP/1.1. The journal then records
    /// `"protocol": "HTTP/2"` and `"streamId"`.
    @inlinable
    public var streamID: Int32 {
        get { storage.fields.streamID }
        set { storage.modify { $0.streamID = newValue } }
    }

    @usableFromInline var storage: CopyOnWriteFields<Fields>

    @usableFromInline
    struct Fields: Sendable {
        @usableFromInline var method: String
        @usableFromInline var path: String
        @usableFromInline var query: String?
        @usableFromInline var headers: HTTPHeaders
        @usableFromInline var receivedHeaders: HTTPHeaders? = nil
        @usableFromInline var body: [UInt8]
        @usableFromInline var isSecure = false
        @usableFromInline var streamID: Int32 = 0
    }

    /// Creates a request from its parts.
    public init(
        method: String, path: String, query: String? = nil, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        storage = CopyOnWriteFields(Fields(method: method, path: path, query: query, headers: headers, body: body))
    }

    /// Creates a request from a request target such as `/posts?page=1`, splitting off the query.
    public init(method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        if let mark = target.firstIndex(of: "?") {
            self.init(
                method: method, path: String(target[..<mark]),
                query: String(target[target.index(after: mark)...]), headers: headers, body: body)
        } else {
            self.init(method: method, path: target, query: nil, headers: headers, body: body)
        }
    }

    /// One shared empty request (a placeholder that costs no allocation).
    package static let empty = HTTPRequest(method: "", path: "")
}
