import UnderstudyHTTP

/// The ticket a ``JournalRecorder`` hands out: the request's record, waiting in the ticket until
/// the transport commits what it sent, and the recorder that then writes the entry.
///
/// The transport holds it as a plain ``JournalTicket`` (UnderstudyHTTP's seam); a commit is one
/// virtual call to here, then the recorder's write. Stored properties are `@exclusivity(unchecked)`:
/// the event-loop thread alone touches a ticket, and no access overlaps another.
final class RecorderTicket: JournalTicket {
    /// The recorder that writes the entry; held only while the ticket is outstanding, so a spare
    /// ticket (see ``JournalRecorder/issueTicket(_:)``) does not keep its recorder alive.
    @exclusivity(unchecked) private var recorder: JournalRecorder?
    /// The record until the entry is written; it moves into the entry then.
    @exclusivity(unchecked) private var record: JournalRecord?

    init(recorder: JournalRecorder, record: consuming JournalRecord) {
        self.recorder = recorder
        self.record = consume record
        super.init(worldClock: recorder.clock)
        recorder.awaitingDelivery += 1
    }

    /// Makes a committed ticket that nothing else holds outstanding again, for another request:
    /// the recorder reuses one rather than allocate a ticket per request. Only `recorder`'s own
    /// tickets are reissued, so the ticket's ``JournalTicket/worldClock`` is already its clock.
    func reissue(recorder: JournalRecorder, record: consuming JournalRecord) {
        reopen()
        self.recorder = recorder
        self.record = consume record  // moved, not copied
        recorder.awaitingDelivery += 1
    }

    override func noteProxied(_ exchange: ProxiedExchange) {
        record?.proxied = exchange
    }

    /// Writes the journal entry (memory, then the journal sink) for `delivery`; ``JournalTicket``
    /// calls it once, on the first ``JournalTicket/commit(_:)``.
    override func commitOnce(_ delivery: Delivery, reason: String?) {
        guard let recorder else { return }
        self.recorder = nil
        recorder.awaitingDelivery -= 1
        guard let record = record.take() else { return }
        // `consume`: the record moves into the entry (without it, one copy of every field).
        recorder.record(consume record, delivery, reason: reason)
    }

    /// Attaches what contract checking found to the entry still waiting here.
    func attach(_ findings: ContractFindings) {
        record?.contract = findings
    }
}
