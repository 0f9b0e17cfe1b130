/// One HTTP/1.x response as ``LoopbackHTTPClient`` read it: the status line's parts, the header
/// fields in the order they came, and the body with its framing removed (de-chunked, cut at
/// `Content-Length`).
public struct LoopbackHTTPResponse: Sendable, Equatable {
    /// One header field as it came (the name's case kept).
    public struct Field: Sendable, Equatable {
        /// The field name.
        public var name: String
        /// The value, without the white space around it.
        public var value: String

        /// A field `name: value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The status code (200, 404, …).
    public var status: Int
    /// The status line's reason phrase (`OK`; empty when the server sent none).
    public var reason: String
    /// The header fields, in order. A chunked body's trailer fields are not among them.
    public var headers: [Field]
    /// The body, its transfer framing removed.
    public var body: [UInt8]

    /// A response made of its parts.
    public init(status: Int, reason: String = "", headers: [Field] = [], body: [UInt8] = []) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// The first value of the header field `name` (compared without case); nil when there is none.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}
