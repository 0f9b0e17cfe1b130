/// A request whose journal entry waits for its response's fate.
///
/// ``StubEngine/handle(_:awaitingDelivery:)`` hands one out with each journaled response when
/// the caller is a transport. The transport calls ``commit(_:)`` exactly once, at the moment the
/// answer is about to be written (before any byte of it), the fault carried out, the client seen
/// to leave, or the server to stop: the entry then says what really happened. Until then the
/// request is not in the journal; a delayed answer is journaled when it is sent.
public final class JournalTicket {
    private let engine: StubEngine
    let record: JournalRecord
    /// Whether the entry has been written; later commits are ignored, so a request is journaled
    /// exactly once whichever of its endings is reported first.
    public private(set) var isCommitted = false

    init(engine: StubEngine, record: JournalRecord) {
        self.engine = engine
        self.record = record
        engine.awaitingDelivery += 1
    }

    /// Writes the journal entry (memory, then the journal sink) for `delivery`, once.
    public func commit(_ delivery: Delivery) {
        guard !isCommitted else { return }
        isCommitted = true
        engine.awaitingDelivery -= 1
        engine.record(record, delivery)
    }
}

@available(*, unavailable)
extension JournalTicket: Sendable {}
