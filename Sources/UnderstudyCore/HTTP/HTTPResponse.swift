/// What the engine asks the transport to send. `delayMs` and `fault` are instructions the
/// transport carries out; the engine itself never waits and never touches a connection.
///
/// The fields live in one shared, copy-on-write box (as ``HTTPRequest``'s do): a response is
/// copied on its way from the engine through the responder to the transport's pending reply,
/// and copying a box is one retain where copying the fields retained, and later released, each
/// array and string. The engine also keeps a ready-made response for each static stub response
/// and hands out copies of it, so such an answer allocates nothing. Setting a field copies the
/// box first only when another copy shares it, so the value semantics are unchanged.
public struct HTTPResponse: Sendable {
    /// The status code (100–599).
    public var status: Int {
        get { storage.status }
        set { mutableStorage().status = newValue }
    }
    /// Header fields in the order they are to be written.
    public var headers: HTTPHeaders {
        get { storage.headers }
        set { mutableStorage().headers = newValue }
    }
    /// The body bytes.
    public var body: [UInt8] {
        get { storage.body }
        set { mutableStorage().body = newValue }
    }
    /// Milliseconds to wait before answering; 0 answers at once. The transport waits on a timer,
    /// so a delayed response never holds up other requests.
    public var delayMs: Double {
        get { storage.delayMs }
        set { mutableStorage().delayMs = newValue }
    }
    /// A fault to carry out instead of (or part-way through) a normal response.
    public var fault: Fault? {
        get { storage.fault }
        set { mutableStorage().fault = newValue }
    }
    /// How the transport paces the body (a dribble, a throttle or server-sent events); nil
    /// writes it at once.
    public var streaming: ResponseStreaming? {
        get { storage.streaming }
        set { mutableStorage().streaming = newValue }
    }
    /// The reason phrase for the status line; `nil` uses the standard phrase.
    public var reason: String? {
        get { storage.reason }
        set { mutableStorage().reason = newValue }
    }
    /// The id of the stub that answered, for the access log; `nil` for unmatched and admin requests.
    public var stubID: String? {
        get { storage.stubID }
        set { mutableStorage().stubID = newValue }
    }

    private var storage: Storage

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
                delayMs: Double = 0, fault: Fault? = nil, stubID: String? = nil, reason: String? = nil) {
        storage = Storage(status: status, headers: headers, body: body, delayMs: delayMs, fault: fault,
                          streaming: nil, reason: reason, stubID: stubID)
    }

    /// The box, copied first if another response shares it.
    private mutating func mutableStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The fields. Only mutated through ``mutableStorage()``, that is while this response alone
    /// holds the box, so sharing it across threads is safe; and no access overlaps another,
    /// so the runtime's exclusivity checks are off (`@exclusivity(unchecked)`).
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var status: Int
        @exclusivity(unchecked) var headers: HTTPHeaders
        @exclusivity(unchecked) var body: [UInt8]
        @exclusivity(unchecked) var delayMs: Double
        @exclusivity(unchecked) var fault: Fault?
        @exclusivity(unchecked) var streaming: ResponseStreaming?
        @exclusivity(unchecked) var reason: String?
        @exclusivity(unchecked) var stubID: String?

        init(status: Int, headers: HTTPHeaders, body: [UInt8], delayMs: Double, fault: Fault?,
             streaming: ResponseStreaming?, reason: String?, stubID: String?) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delayMs = delayMs
            self.fault = fault
            self.streaming = streaming
            self.reason = reason
            self.stubID = stubID
        }

        func copy() -> Storage {
            Storage(status: status, headers: headers, body: body, delayMs: delayMs, fault: fault,
                    streaming: streaming, reason: reason, stubID: stubID)
        }
    }
}
