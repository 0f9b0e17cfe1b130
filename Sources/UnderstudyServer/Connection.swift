import CLibevent
import UnderstudyCore

/// What the server tracks for one client connection.
///
/// Created with the connection's bufferevent (see `HTTPServer+Callbacks.swift`), kept alive by
/// the server's table, and dropped in evhttp's close callback, which runs before evhttp frees
/// the connection and its request.
/// Hot stored properties are `@exclusivity(unchecked)`: only the event-loop thread touches them and
/// no access overlaps another, so the runtime's dynamic exclusivity check (~65 instructions per
/// access, several per request) buys nothing.
final class Connection {
    /// The connection's bufferevent, which the server created for evhttp.
    let bufferevent: OpaquePointer
    /// Who answers requests on this connection: the main port's responder or a session's.
    let responder: any HTTPResponder
    /// Whether the connection speaks TLS (it came in on the HTTPS listener).
    let secure: Bool
    /// The evhttp connection, learnt when the first bytes arrive.
    @exclusivity(unchecked) var evcon: OpaquePointer?
    /// Reads the raw request stream alongside evhttp (method names, refused requests).
    @exclusivity(unchecked) var parser: RequestStreamParser
    /// The previous request's header fields, reused when the next one sends the same bytes.
    @exclusivity(unchecked) var headerCache = RequestHeaderCache()
    /// Heads seen on the wire and not yet handed over by evhttp, oldest first.
    @exclusivity(unchecked) var heads: [RequestHead] = []
    /// The request being answered. evhttp reads the next request on a connection only after
    /// the previous response is written, so there is at most one.
    @exclusivity(unchecked) var current: PendingReply?
    /// Whether evhttp is writing an answer (set when it is handed over, cleared by its on-complete
    /// callback). An answer sent at once has no ``current``; this says the connection is busy.
    @exclusivity(unchecked) var writing = false
    /// Whether a request is being answered (waiting, or being written).
    var answering: Bool { current != nil || writing }
    /// The server, while the connection is open.
    weak var server: HTTPServer?
    /// The raw-stream reader's registration on the input buffer, removed on close.
    var tap: OpaquePointer?
    /// A whole head (and body) must arrive within the idle timeout of its first byte, however
    /// slowly it trickles. One timer per connection, made on its first request. It is not
    /// removed when evhttp hands a request over (removing and re-adding it cost ~600
    /// instructions a request): when it fires it checks whether a request is still arriving and
    /// since when, and re-arms itself for what is left of that request's deadline.
    var requestDeadline: EventHandle?
    /// Whether a request has begun arriving and has not been handed over (its deadline counts).
    @exclusivity(unchecked) var deadlineArmed = false
    /// Monotonic nanoseconds when the arriving request's first byte came.
    @exclusivity(unchecked) var requestBegan: UInt64 = 0
    /// Whether ``requestDeadline`` is pending in the loop.
    @exclusivity(unchecked) var deadlineTimerPending = false

    /// The request has been handed over: its deadline no longer counts (the timer stays pending
    /// for the connection's next request, see ``requestDeadline``).
    func cancelDeadline() {
        deadlineArmed = false
    }

    init(bufferevent: OpaquePointer, responder: any HTTPResponder, secure: Bool = false, parser: RequestStreamParser) {
        self.bufferevent = bufferevent
        self.responder = responder
        self.secure = secure
        self.parser = parser
    }

    /// The head for the request evhttp just handed over, if the raw stream agrees on its target.
    func takeHead(target: String) -> RequestHead? {
        guard !heads.isEmpty else { return nil }
        let head = heads.removeFirst()
        return head.target == target ? head : nil
    }
}
