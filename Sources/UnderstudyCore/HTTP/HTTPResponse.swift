/// What the engine asks the transport to send. `delayMs` and `fault` are instructions the
/// transport carries out; the engine itself never waits and never touches a connection.
public struct HTTPResponse: Sendable {
    /// The status code (100–599).
    public var status: Int
    /// Header fields in the order they are to be written.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]
    /// Milliseconds to wait before answering; 0 answers at once. The transport waits on a timer,
    /// so a delayed response never holds up other requests.
    public var delayMs: Double
    /// A fault to carry out instead of (or part-way through) a normal response.
    public var fault: Fault?
    /// The reason phrase for the status line; `nil` uses the standard phrase.
    public var reason: String?
    /// The id of the stub that answered, for the access log; `nil` for unmatched and admin requests.
    public var stubID: String?

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
                delayMs: Double = 0, fault: Fault? = nil, stubID: String? = nil, reason: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delayMs = delayMs
        self.fault = fault
        self.stubID = stubID
        self.reason = reason
    }
}
