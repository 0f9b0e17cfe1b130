/// A request whose journal entry waits for its response's fate: what the transport reports,
/// once, about what it did with an answer.
///
/// A responder hands one out with each journaled answer (``HTTPResponder/answerAwaitingDelivery(_:)``).
/// The transport calls ``commit(_:)`` exactly once, at the moment the answer is about to be
/// written (before any byte of it), the fault carried out, the client seen to leave, or the server
/// to stop: the entry then says what really happened. Until then the request is not in the
/// journal; a delayed answer is journaled when it is sent.
///
/// The transport sees only this class; the journal behind it (the engine's recorder, in
/// UnderstudyCore) subclasses it and overrides ``commitOnce(_:reason:)``, so a commit goes
/// straight to whoever writes the entry, with no cast. Stored properties are
/// `@exclusivity(unchecked)`: the event-loop thread alone touches a ticket, and no access overlaps
/// another. The attribute only holds for accesses compiled in this module (another module's access
/// to a class's stored property is checked at run time, ~45 instructions each), so the per-request
/// bookkeeping (``commit(_:)``, ``reopen()``) lives here and a subclass reads state through calls.
open class JournalTicket {
    /// See ``isCommitted``.
    @exclusivity(unchecked) private var committed = false
    /// Whether the entry has been written; later commits are ignored, so a request is journaled
    /// exactly once whichever of its endings is reported first.
    public final var isCommitted: Bool { committed }
    /// The reason phrase of the status line sent, set by the transport just before ``commit(_:)``
    /// only when it was not the standard one (a stub's `statusMessage`, libevent's own error
    /// pages); journaled as `response.reason`, and cleared by the commit that uses it. Not a
    /// ``Delivery`` field: one there is copied with every delivery (+330 instructions per request
    /// measured). Tickets are reused, so storing it here costs no allocation.
    @exclusivity(unchecked) public final var sentReason: String?
    /// The body as the stub wrote it, set by the transport before ``commit(_:)`` only when it sent
    /// the body compressed (a response's `compress`): the entry journals it instead of the bytes
    /// sent, whose coding its `Content-Encoding` header names. Cleared by the commit that uses it.
    @exclusivity(unchecked) public final var bodyBeforeEncoding: [UInt8]?
    /// The clock of the world that answered: the transport asks it whether a delay or a paced body
    /// waits for the clock's advance instead of a real timer. Set once: a reused ticket serves the
    /// same world (its journal's), so reissuing it costs no retain.
    public final let worldClock: WorldClock?

    /// A ticket outstanding for the world on `worldClock`.
    public init(worldClock: WorldClock?) {
        self.worldClock = worldClock
    }

    /// Records what happened upstream for a proxied request, journaled with the entry
    /// (`proxied`); call it before ``commit(_:)``. The base ticket journals nothing, so it drops it.
    open func noteProxied(_ exchange: ProxiedExchange) {}

    /// Reports what became of the answer: the first call marks the ticket committed and hands
    /// `delivery`, with ``sentReason`` (used once and cleared here, so the next request starts
    /// without one and the common path, no phrase, never stores to it), to ``commitOnce(_:reason:)``;
    /// later calls are ignored.
    public final func commit(_ delivery: Delivery) {
        guard !committed else { return }
        committed = true
        let reason = sentReason
        if reason != nil { sentReason = nil }
        if let original = bodyBeforeEncoding {
            bodyBeforeEncoding = nil
            var journaled = delivery
            if journaled.outcome == .answered { journaled.body = original }
            commitOnce(journaled, reason: reason)
            return
        }
        commitOnce(delivery, reason: reason)
    }

    /// Writes the journal entry for `delivery` sent with the status line's phrase `reason` (nil:
    /// the standard one). Called once per ticket by ``commit(_:)``; the base ticket journals nothing.
    open func commitOnce(_ delivery: Delivery, reason: String?) {}

    /// Makes a committed ticket outstanding again, for a subclass that reuses its tickets.
    package final func reopen() {
        committed = false
    }

    /// Commits what sending `response` as it stands amounts to (``Delivery/planned(_:)``), its
    /// reason phrase included, for callers without a transport.
    public final func commit(planned response: HTTPResponse) {
        if let reason = response.reason { sentReason = reason }
        commit(.planned(response))
    }
}

@available(*, unavailable)
extension JournalTicket: Sendable {}
