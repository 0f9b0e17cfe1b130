import CLibevent
import UnderstudyCore

/// What the server tracks for one client connection.
///
/// Created with the connection's bufferevent (see `HTTPServer+Callbacks.swift`), kept alive by
/// the server's table, and dropped in evhttp's close callback, which runs before evhttp frees
/// the connection and its request.
final class Connection {
    /// The connection's bufferevent, which the server created for evhttp.
    let bufferevent: OpaquePointer
    /// Who answers requests on this connection: the main port's responder or a session's.
    let responder: any HTTPResponder
    /// Whether the connection speaks TLS (it came in on the HTTPS listener).
    let secure: Bool
    /// The evhttp connection, learnt when the first bytes arrive.
    var evcon: OpaquePointer?
    /// Reads the raw request stream alongside evhttp (method names, refused requests).
    var parser: RequestStreamParser
    /// Heads seen on the wire and not yet handed over by evhttp, oldest first.
    var heads: [RequestHead] = []
    /// The request being answered. evhttp reads the next request on a connection only after
    /// the previous response is written, so there is at most one.
    var current: PendingReply?
    /// The server, while the connection is open.
    weak var server: HTTPServer?
    /// The raw-stream reader's registration on the input buffer, removed on close.
    var tap: OpaquePointer?
    /// Armed when a request's first byte arrives, cancelled when evhttp hands the request over:
    /// a whole head (and body) must arrive within the idle timeout, however slowly it trickles.
    /// One timer per connection, made on its first request and re-armed for each later one.
    var requestDeadline: EventHandle?
    /// Whether ``requestDeadline`` is pending (a request has begun and not been handed over).
    var deadlineArmed = false

    /// Stops the request deadline, keeping its timer for the connection's next request.
    func cancelDeadline() {
        guard deadlineArmed else { return }
        deadlineArmed = false
        requestDeadline?.remove()
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
