import UnderstudyCore

/// One request's reply channel: what the shared request code (`HTTPServer+Requests`,
/// `+Streaming`, `+Faults`) needs of a codec to answer a request now, later, paced, or with a
/// fault. An HTTP/1.1 ``Connection`` is one channel at a time; an HTTP/2 connection has one
/// ``HTTP2Stream`` per request. The responder, engine, journal and sessions are the same for both:
/// only how the head, the body pieces and the faults reach the wire differs.
protocol ReplyChannel: AnyObject {
    /// Who answers requests on this channel: the main port's responder or a session's.
    var responder: any HTTPResponder { get }
    /// The server, while the channel is open.
    var server: HTTPServer? { get }
    /// The request being answered later (a delay, a fault, a long poll, a paced body).
    var current: PendingReply? { get set }
    /// The channel is gone (its connection closed, or its stream reset).
    var closed: Bool { get }
    /// The request's method and target, for the access log.
    var requestMethod: String { get }
    var requestTarget: String { get }
    /// Whether the request was `HEAD`: a paced body is not sent.
    var isHeadRequest: Bool { get }

    /// Writes the whole response and commits its journal entry from what was written; with
    /// `refusal`, the entry's outcome is `refused` with that reason.
    func writeReply(_ response: HTTPResponse, journal: JournalTicket?, closeAfter: Bool, refusal: String?)
    /// Writes the head of a paced body; returns whether its pieces are chunked (HTTP/1.1) and
    /// whether the connection closes after it.
    func writeStreamHead(_ response: HTTPResponse, chunked: Bool, closeAfter: Bool, journal: JournalTicket?)
        -> (chunked: Bool, closing: Bool)
    /// One piece of a paced body.
    func writePiece(_ bytes: [UInt8], chunked: Bool)
    /// Ends a paced body; it counts as in flight until it is out.
    func finishStream(chunked: Bool, closing: Bool)
    /// The request being answered is done: the channel may take the next one.
    func answered()
    /// What carrying out `fault` for `response` will put on the wire before it breaks off: the
    /// head as this codec writes it, and HTTP/2's frame. `carryOut` journals exactly this and
    /// ``perform(_:response:plan:)`` sends exactly this, so the entry cannot say other than the wire.
    func plan(_ fault: Fault, for response: HTTPResponse) -> FaultPlan
    /// Carries out `fault` on the wire as `plan` says (its journal entry is already committed).
    func perform(_ fault: Fault, response: HTTPResponse, plan: FaultPlan)
}

/// What a fault sends before it breaks off, decided once by the channel (``ReplyChannel/plan(_:for:)``)
/// and then both journaled and written.
struct FaultPlan {
    /// The status line or `:status`, the reason phrase sent (nil when none, or over HTTP/2), and
    /// the header fields exactly as they go out; nil when the fault sends no head.
    var head: (status: Int, reason: String?, headers: HTTPHeaders)?
    /// The `RST_STREAM` or `GOAWAY` sent (HTTP/2 only), with the last-stream id it names.
    var frame: FaultParameters.Frame?
}
