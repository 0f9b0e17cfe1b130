/// A request whose journal entry waits for its response's fate.
///
/// ``StubEngine/handle(_:awaitingDelivery:)`` hands one out with each journaled response when
/// the caller is a transport. The transport calls ``commit(_:)`` exactly once, at the moment the
/// answer is about to be written (before any byte of it), the fault carried out, the client seen
/// to leave, or the server to stop: the entry then says what really happened. Until then the
/// request is not in the journal; a delayed answer is journaled when it is sent.
public final class JournalTicket {
    /// The engine that writes the entry; held only while the ticket is outstanding, so a spare
    /// ticket (see ``StubEngine/issueTicket(_:)``) does not keep its engine alive.
    /// Stored properties are `@exclusivity(unchecked)`: the event-loop thread alone touches a
    /// ticket, and no access overlaps another.
    @exclusivity(unchecked) private var engine: StubEngine?
    /// The record until the entry is written; it moves into the entry then.
    @exclusivity(unchecked) private var record: JournalRecord?
    /// Whether the entry has been written; later commits are ignored, so a request is journaled
    /// exactly once whichever of its endings is reported first.
    @exclusivity(unchecked) public private(set) var isCommitted = false
    /// The reason phrase of the status line sent, set by the transport just before ``commit(_:)``
    /// only when it was not the standard one (a stub's `statusMessage`, libevent's own error
    /// pages); journaled as `response.reason`. Not a ``Delivery`` field (one there is copied with
    /// every delivery: +330 instructions per request measured) nor a stored property (a bigger
    /// ticket for every request): it is held by the engine until the commit that follows.
    public var sentReason: String? {
        get { engine?.sentReason }
        set { engine?.sentReason = newValue }
    }

    /// The clock of the world that answered, while the ticket is outstanding: the transport asks
    /// it whether a delay or a paced body waits for the clock's advance instead of a real timer.
    public var worldClock: WorldClock? { engine?.clock }

    /// Records what happened upstream for a proxied request, journaled with the entry
    /// (`proxied`); call it before ``commit(_:)``.
    public func noteProxied(_ exchange: ProxiedExchange) {
        record?.proxied = exchange
    }

    init(engine: StubEngine, record: consuming JournalRecord) {
        self.engine = engine
        self.record = record
        engine.awaitingDelivery += 1
    }

    /// Makes a committed ticket that nothing else holds outstanding again, for another request:
    /// the engine reuses one rather than allocate a ticket per request.
    func reissue(engine: StubEngine, record: consuming JournalRecord) {
        self.engine = engine
        self.record = record
        isCommitted = false
        engine.awaitingDelivery += 1
    }

    /// Writes the journal entry (memory, then the journal sink) for `delivery`, once.
    /// ``sentReason`` is used once and cleared here, so the next request starts without one and
    /// the common path (no phrase) never stores to it.
    public func commit(_ delivery: Delivery) {
        guard !isCommitted, let engine else { return }
        isCommitted = true
        self.engine = nil
        engine.awaitingDelivery -= 1
        let reason = engine.sentReason
        if reason != nil { engine.sentReason = nil }
        guard let record = record.take() else { return }
        if let reason {
            engine.record(record, delivery, reason: reason)
        } else {
            engine.record(record, delivery)
        }
    }

    /// Attaches what contract checking found to the entry still waiting here.
    func attach(_ findings: ContractFindings) {
        record?.contract = findings
    }

    /// Commits what sending `response` as it stands amounts to (``Delivery/planned(_:)``), its
    /// reason phrase included, for callers without a transport.
    func commit(planned response: HTTPResponse) {
        if let reason = response.reason { sentReason = reason }
        commit(.planned(response))
    }
}

@available(*, unavailable)
extension JournalTicket: Sendable {}
