/// What a responder's webhooks ask of the transport that serves it: send a request on the
/// transport's own HTTP client and report how it ended, and wait real time on its event loop.
/// The transport (UnderstudyServer's `OutboundRequests`, on libcurl) implements it; the engine
/// decides what to send and when, so that is tested without a socket.
///
/// Both are called on the event loop and call back on it; neither blocks it.
public protocol OutboundSending: AnyObject {
    /// Sends `request`; `completion` is called once, on the loop, with what came back or why nothing did.
    func deliver(_ request: UpstreamRequest, completion: @escaping (OutboundOutcome) -> Void)
    /// Calls `action` on the loop once `nanoseconds` of real time have passed.
    func after(nanoseconds: UInt64, _ action: @escaping () -> Void)
    /// HMAC-SHA256 of `message` under `key` (OpenSSL's `HMAC`): what webhook signatures are made of.
    func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8]
}

/// How one outbound request ended: the receiver's answer, or what went wrong before it.
public struct OutboundOutcome: Sendable {
    /// The receiver's status; nil when it sent none.
    public var status: Int?
    /// The receiver's header fields, as received.
    public var headers: HTTPHeaders
    /// The receiver's body, as received.
    public var body: [UInt8]
    /// Why no answer came (`connection-refused`, `timeout`, `connection-reset`, …); nil when one did.
    public var error: String?
    /// The client's own words for the failure.
    public var reason: String?
    /// Milliseconds from sending to the end of the answer (or the failure).
    public var milliseconds: Double

    /// An outcome from its parts.
    public init(
        status: Int?, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], error: String? = nil,
        reason: String? = nil, milliseconds: Double = 0
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.error = error
        self.reason = reason
        self.milliseconds = milliseconds
    }

    /// Whether the receiver took it: a 2xx answer.
    public var succeeded: Bool { status.map { (200...299).contains($0) } ?? false }
}

/// Where a responder's worlds (the main port and its sessions) find the transport's sender: set
/// by the transport once it starts (``TransportHooks/outbound``), read when a webhook is due.
/// Shared by reference, so a session made before or after the transport started sees it.
public final class OutboundLink {
    /// The transport's sender; nil until a transport serves the responder (then webhooks fail
    /// with `no-transport`).
    public var sender: (any OutboundSending)?

    /// A link with no sender yet.
    public init() {}
}

@available(*, unavailable)
extension OutboundLink: Sendable {}
