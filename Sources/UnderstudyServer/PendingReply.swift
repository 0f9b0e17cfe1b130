import CLibevent
import UnderstudyCore

/// A request evhttp has handed over and that has not been answered on the wire yet: waiting
/// out its delay, about to carry out a fault, or being written.
/// Hot stored properties are `@exclusivity(unchecked)`: only the event-loop thread touches them and
/// no access overlaps another, so the runtime's dynamic exclusivity check (~65 instructions per
/// access, several per request) buys nothing.
final class PendingReply {
    /// The evhttp request; valid while its connection is open (the connection's close callback
    /// drops this object before evhttp frees the request).
    let request: OpaquePointer
    /// What to send; for a deferred reply, filled in when the responder answers.
    @exclusivity(unchecked) var response: HTTPResponse
    /// The request's journal entry, written when the answer's fate is known (see
    /// ``JournalTicket``); nil for requests that are not journaled (admin).
    let journal: JournalTicket?
    /// Set while the responder has yet to answer (a long poll); cancelled if the client leaves.
    @exclusivity(unchecked) var deferral: DeferredReply?
    let method: String
    let target: String
    /// When evhttp handed the request over (monotonic nanoseconds), for the access log.
    let receivedAt: UInt64
    /// Whether the connection must close after this response (the request body could not be read).
    let closeAfter: Bool
    /// The timer for a delay, a fault or a long poll's timeout; freed with this object.
    @exclusivity(unchecked) var timer: EventHandle?
    /// Watches the socket while the answer waits (a delay or a long poll), to notice a client
    /// that hangs up (see `HTTPServer+HangUp.swift`); freed with this object.
    @exclusivity(unchecked) var hangupWatch: EventHandle?
    /// Monotonic nanoseconds before which a delayed reply must not be sent.
    var dueAt: UInt64 = 0
    /// Set once the answer's fate is settled (sent, faulted, or the client gone), so it is
    /// settled once.
    @exclusivity(unchecked) var sent = false

    init(request: OpaquePointer, response: HTTPResponse, journal: JournalTicket? = nil, method: String, target: String,
         receivedAt: UInt64, closeAfter: Bool) {
        self.request = request
        self.response = response
        self.journal = journal
        self.method = method
        self.target = target
        self.receivedAt = receivedAt
        self.closeAfter = closeAfter
    }
}
