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
    /// Carries out `fault` on the wire (its journal entry is already committed).
    func perform(_ fault: Fault, response: HTTPResponse)
}
