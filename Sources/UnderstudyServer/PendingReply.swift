import UnderstudyCore

/// A request handed to the responder whose answer is not written at once: waiting out its
/// delay, about to carry out a fault, waiting for a long poll's answer, or a paced body being
/// written. Owned by its channel (``ReplyChannel/current``: an HTTP/1.1 ``Connection`` or an
/// ``HTTP2Stream``) until it is done; its timers hold it, unretained, as their context.
/// Hot stored properties are `@exclusivity(unchecked)`: only the event-loop thread touches them and
/// no access overlaps another, so the runtime's dynamic exclusivity check buys nothing.
final class PendingReply {
    /// What to send; for a deferred reply, filled in when the responder answers.
    @exclusivity(unchecked) var response: HTTPResponse
    /// The request's journal entry, written when the answer's fate is known (see
    /// ``JournalTicket``); nil for requests that are not journaled (admin).
    let journal: JournalTicket?
    /// The channel it answers on; it owns this reply, so it outlives it unless it closes first.
    weak var channel: (any ReplyChannel)?
    /// Set while the responder has yet to answer (a long poll); cancelled if the client leaves.
    @exclusivity(unchecked) var deferral: DeferredReply?
    /// What the reply keeps of its request (for the access log, delays and framing).
    let origin: Origin
    /// The timer for a delay, a fault or a long poll's timeout; freed with this object.
    @exclusivity(unchecked) var timer: EventHandle?
    /// Monotonic nanoseconds before which a delayed reply must not be sent.
    var dueAt: UInt64 = 0
    /// A paced body being written (see `ReplyScheduler+Streaming.swift`).
    var stream: ResponseStream?
    /// A proxied request's upstream exchange and its answer (see `OutboundRequests.swift`).
    var relay: ProxyRelay?
    /// The clock of the world that answered (a delay or paced body is timed on it); nil for
    /// answers no engine journals (a long poll).
    var worldClock: WorldClock?
    /// The delay or next piece, held by a frozen world clock instead of a timer (see
    /// `ReplyScheduler+Clock.swift`); dropped with this reply, so it never fires for a closed connection.
    var held: ClockSchedule.Item? {
        didSet { oldValue?.cancel() }
    }
    /// Set once the answer's fate is settled (sent, faulted, or the client gone), so it is
    /// settled once.
    @exclusivity(unchecked) var sent = false

    init(
        response: HTTPResponse, journal: JournalTicket? = nil, channel: any ReplyChannel, method: String,
        target: String, receivedAt: UInt64, closeAfter: Bool
    ) {
        self.response = response
        self.channel = channel
        self.journal = journal
        self.origin = Origin(method: method, target: target, receivedAt: receivedAt, closeAfter: closeAfter)
    }

    /// The facts of the request a reply answers, fixed when it is handed over.
    struct Origin {
        let method: String
        let target: String
        /// When the request was complete (monotonic nanoseconds), for the access log and delays.
        let receivedAt: UInt64
        /// Whether the connection must close after this response.
        let closeAfter: Bool
    }

    var method: String { origin.method }
    var target: String { origin.target }
    var receivedAt: UInt64 { origin.receivedAt }
    var closeAfter: Bool { origin.closeAfter }

    deinit {
        held?.cancel()
    }
}
