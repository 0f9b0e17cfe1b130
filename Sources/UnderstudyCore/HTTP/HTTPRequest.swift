/// A request as the transport received it. The engine sees only this value, never a socket,
/// which is what lets the whole engine be tested without a network.
///
/// The fields live in one shared, copy-on-write box: a request is copied several times on its
/// way (into the match context, the journal record, the journal entry), and copying a box is
/// one retain where copying five fields retained and later released each string and array
/// (about 260 instructions a copy, measured). Setting a field copies the box first only when
/// another copy shares it, so the value semantics are unchanged.
public struct HTTPRequest: Sendable {
    /// The method exactly as sent (`GET`, `PATCH`, or any custom token).
    public var method: String {
        get { storage.method }
        set { mutableStorage().method = newValue }
    }
    /// The path as sent, still percent-encoded, without the query string.
    public var path: String {
        get { storage.path }
        set { mutableStorage().path = newValue }
    }
    /// The raw query string after `?`, or `nil` when the target had no `?`.
    public var query: String? {
        get { storage.query }
        set { mutableStorage().query = newValue }
    }
    /// Header fields in arrival order; repeated names are kept.
    public var headers: HTTPHeaders {
        get { storage.headers }
        set { mutableStorage().headers = newValue }
    }
    /// The request body bytes (empty when there was none).
    public var body: [UInt8] {
        get { storage.body }
        set { mutableStorage().body = newValue }
    }
    /// Whether it arrived over TLS (the HTTPS listener); the journal then records `"scheme": "https"`.
    public var isSecure: Bool {
        get { storage.isSecure }
        set { mutableStorage().isSecure = newValue }
    }

    private var storage: Storage

    /// Creates a request from its parts.
    public init(method: String, path: String, query: String? = nil, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        storage = Storage(method: method, path: path, query: query, headers: headers, body: body, isSecure: false)
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

    /// One shared empty request (a placeholder that costs no allocation).
    static let empty = HTTPRequest(method: "", path: "")

    /// The box, copied first if another request shares it.
    private mutating func mutableStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The fields. Only mutated through ``mutableStorage()``, that is while this request alone
    /// holds the box, so sharing it across threads is safe; and no access overlaps another,
    /// so the runtime's exclusivity checks are off (`@exclusivity(unchecked)`).
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var method: String
        @exclusivity(unchecked) var path: String
        @exclusivity(unchecked) var query: String?
        @exclusivity(unchecked) var headers: HTTPHeaders
        @exclusivity(unchecked) var body: [UInt8]
        @exclusivity(unchecked) var isSecure: Bool

        init(method: String, path: String, query: String?, headers: HTTPHeaders, body: [UInt8], isSecure: Bool) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
            self.isSecure = isSecure
        }

        func copy() -> Storage {
            Storage(method: method, path: path, query: query, headers: headers, body: body, isSecure: isSecure)
        }
    }
}
