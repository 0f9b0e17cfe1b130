import UnderstudyStubFormat

/// A broken response the transport carries out instead of answering: the stub format's own enum
/// (``StubFormat/Fault``, whose raw values are the names stub files use), so a fault is added once.
public typealias Fault = StubFormat.Fault

/// What the engine asks the transport to send. `delayMs` and `fault` are instructions the
/// transport carries out; the engine itself never waits and never touches a connection.
///
/// The fields live in one shared, copy-on-write box (``CopyOnWriteFields``, as ``HTTPRequest``'s
/// do): a response is copied on its way from the engine through the responder to the transport,
/// and copying a box is one retain where copying the fields retained, and later released, each
/// array and string. The engine also keeps a ready-made response for each static stub response
/// and hands out copies of it, so such an answer allocates nothing.
public struct HTTPResponse: Sendable {
    /// The status code (100–599).
    @inlinable
    public var status: Int {
        get { storage.fields.status }
        set { storage.modify { $0.status = newValue } }
    }
    /// Header fields in the order they are to be written.
    @inlinable
    public var headers: HTTPHeaders {
        get { storage.fields.headers }
        set { storage.modify { $0.headers = newValue } }
    }
    /// The body bytes.
    @inlinable
    public var body: [UInt8] {
        get { storage.fields.body }
        set { storage.modify { $0.body = newValue } }
    }
    /// Milliseconds to wait before answering; 0 answers at once. The transport waits on a timer,
    /// so a delayed response never holds up other requests.
    @inlinable
    public var delayMs: Double {
        get { storage.fields.delayMs }
        set { storage.modify { $0.delayMs = newValue } }
    }
    /// A fault to carry out instead of (or part-way through) a normal response.
    @inlinable
    public var fault: Fault? {
        get { storage.fields.fault }
        set { storage.modify { $0.fault = newValue } }
    }
    /// What `fault`'s object form adds to it (an HTTP/2 error code, a `GOAWAY`'s last-stream id).
    @inlinable
    public var faultParameters: FaultParameters? {
        get { storage.fields.faultParameters }
        set { storage.modify { $0.faultParameters = newValue } }
    }
    /// How the transport paces the body (a dribble, a throttle or server-sent events); nil
    /// writes it at once.
    @inlinable
    public var streaming: ResponseStreaming? {
        get { storage.fields.streaming }
        set { storage.modify { $0.streaming = newValue } }
    }
    /// A request to forward upstream: the transport answers with what the upstream sends back
    /// (a stub's `proxy`); nil for every other answer.
    @inlinable
    public var proxy: UpstreamRequest? {
        get { storage.fields.proxy }
        set { storage.modify { $0.proxy = newValue } }
    }
    /// How the transport compresses the body (`compress`); nil sends it as it is, and costs the
    /// request path one nil check.
    @inlinable
    public var compression: ResponseCompression? {
        get { storage.fields.compression }
        set { storage.modify { $0.compression = newValue } }
    }
    /// The reason phrase for the status line; `nil` uses the standard phrase.
    @inlinable
    public var reason: String? {
        get { storage.fields.reason }
        set { storage.modify { $0.reason = newValue } }
    }
    /// The id of the stub that answered, for the access log; `nil` for unmatched and admin requests.
    @inlinable
    public var stubID: String? {
        get { storage.fields.stubID }
        set { storage.modify { $0.stubID = newValue } }
    }

    @usableFromInline var storage: CopyOnWriteFields<Fields>

    @usableFromInline
    struct Fields: Sendable {
        @usableFromInline var status: Int
        @usableFromInline var headers: HTTPHeaders
        @usableFromInline var body: [UInt8]
        @usableFromInline var delayMs: Double
        @usableFromInline var fault: Fault?
        @usableFromInline var faultParameters: FaultParameters?
        @usableFromInline var streaming: ResponseStreaming?
        @usableFromInline var proxy: UpstreamRequest?
        @usableFromInline var compression: ResponseCompression?
        @usableFromInline var reason: String?
        @usableFromInline var stubID: String?
    }

    /// Creates a response.
    public init(
        status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        delayMs: Double = 0, fault: Fault? = nil, stubID: String? = nil, reason: String? = nil,
        faultParameters: FaultParameters? = nil
    ) {
        storage = CopyOnWriteFields(
            Fields(
                status: status, headers: headers, body: body, delayMs: delayMs, fault: fault,
                faultParameters: faultParameters, streaming: nil, proxy: nil, compression: nil, reason: reason,
                stubID: stubID))
    }
}
