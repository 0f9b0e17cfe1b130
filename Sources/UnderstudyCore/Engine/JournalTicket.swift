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
    public func commit(_ delivery: Delivery) {
        guard !isCommitted, let engine else { return }
        isCommitted = true
        self.engine = nil
        engine.awaitingDelivery -= 1
        guard let record = record.take() else { return }
        engine.record(record, delivery)
    }
}

@available(*, unavailable)
extension JournalTicket: Sendable {}
