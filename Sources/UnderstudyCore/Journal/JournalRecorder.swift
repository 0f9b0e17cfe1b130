import UnderstudyHTTP

/// Writes the journal: what was sent for each request, once the transport reports it. It owns the
/// in-memory journal, the encoding of its lines (the header cache, the time prefix), the writes to
/// the journal sink and their batching, the tickets requests wait in, and the pending
/// `GET /__admin/requests/wait` calls.
///
/// A request's data flows one way: transport → engine (the answer, and a ticket from here) →
/// transport (sends it) → recorder (the ticket's commit: what was sent).
///
/// **Threading:** the engine's thread (the transport's event loop) alone drives it; not `Sendable`.
/// Hot stored properties are `@exclusivity(unchecked)`, as in ``StubEngine``.
final class JournalRecorder {
    /// The entries kept in memory, in `seq` order.
    @exclusivity(unchecked) private(set) var journal: Journal
    /// The world's clock: outcome times, and what tickets tell the transport (``JournalTicket/worldClock``).
    let clock: WorldClock
    /// The monotonic reading at creation; `elapsedMs` counts from here, across resets.
    let startNanoseconds: UInt64
    /// Where every line goes after memory (a JSONL file), if anywhere.
    private let sink: (any JournalSink)?
    /// `sink` as ``JournalBatching``, cast once (a protocol cast is a conformance lookup, and
    /// batches open and close on every loop pass).
    let sinkBatching: (any JournalBatching)?
    /// The session whose journal this is (`session` in every line), nil on the main port.
    let sessionID: String?
    /// Request and response bodies longer than this are cut in journal lines.
    let bodyLimit: Int
    /// Requests handed to the transport whose entry waits for their answer (a delay).
    @exclusivity(unchecked) var awaitingDelivery = 0
    /// Tickets issued before, reused once committed and held by no one else (see ``issueTicket(_:)``).
    @exclusivity(unchecked) private var spareTickets: [RecorderTicket] = []
    /// The slot of `spareTickets` the next request tries.
    @exclusivity(unchecked) private var nextSpareTicket = 0
    /// Pending `GET /__admin/requests/wait` calls, completed as entries are journaled.
    @exclusivity(unchecked) var waiters: [JournalWaiter] = []
    /// The ISO 8601 text up to the seconds of the last line's arrival, reused within that second.
    @exclusivity(unchecked) private var timePrefix = (second: Int64.min, text: "")
    /// Scratch space journal lines are encoded into.
    private let lineBuffer = JSONWriter()
    /// The JSON of request header lists that repeat (a kept-alive client's), copied into lines.
    private let headerJSON = JournalHeaderCache()

    /// A recorder keeping at most `limit` entries in memory and writing each line to `sink`.
    init(limit: Int, sink: (any JournalSink)?, sessionID: String?, bodyLimit: Int, clock: WorldClock) {
        self.journal = Journal(limit: limit)
        self.clock = clock
        self.startNanoseconds = clock.monotonicNanoseconds
        self.sink = sink
        self.sinkBatching = sink as? any JournalBatching
        self.sessionID = sessionID
        self.bodyLimit = bodyLimit
    }

    // MARK: - Tickets

    /// A ticket for `record`. Tickets are kept in a small ring and handed out round-robin: the
    /// slot's ticket is reused when its request is done with it (committed, and nothing else
    /// holds it), else a new ticket takes the slot. One spare was not enough: with several
    /// keep-alive connections, the ticket issued last is usually still held by another
    /// connection's reply, and each request paid for a new ticket.
    func issueTicket(_ record: consuming JournalRecord) -> RecorderTicket {
        let slot = nextSpareTicket
        nextSpareTicket = (slot + 1) & (Self.spareTicketSlots - 1)
        // `consume` in each branch: the record moves into the ticket, never copied.
        guard slot < spareTickets.count else {
            let ticket = RecorderTicket(recorder: self, record: consume record)
            spareTickets.append(ticket)
            return ticket
        }
        if isKnownUniquelyReferenced(&spareTickets[slot]), spareTickets[slot].isCommitted {
            let spare = spareTickets[slot]
            spare.reissue(recorder: self, record: consume record)
            return spare
        }
        let ticket = RecorderTicket(recorder: self, record: consume record)
        spareTickets[slot] = ticket
        return ticket
    }

    /// How many tickets ``issueTicket(_:)`` keeps for reuse (a power of two): more than the
    /// requests usually in flight at once.
    static let spareTicketSlots = 32

    // MARK: - Writing

    /// Writes one entry: `record` (the request, as it arrived) with `delivery` (what was sent).
    /// `seq` is given now, so the JSONL file is in `seq` order; `time` and `elapsedMs` are the
    /// arrival's, `outcomeMs` is now.
    /// The record is consumed: its request moves into the entry.
    func record(_ record: consuming JournalRecord, _ delivery: Delivery, reason: String? = nil) {
        // `serve --openapi`'s findings (nil without it): a refusal it made (`--openapi-mode fail`) is
        // sent as an answer but journaled as what it is.
        if let findings = record.contract, let refusal = findings.refusal, delivery.outcome == .answered {
            return self.record(record, Self.refused(delivery, refusal), reason: reason)
        }
        let milliseconds = record.arrivalMilliseconds
        let second = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        if second != timePrefix.second {
            // The part up to the seconds changes once a second; reuse it in between.
            let full = TimeFormatting.iso8601Milliseconds(Double(second))
            timePrefix = (second, String(full.dropLast(4)))
        }
        let fraction = Int(milliseconds - second * 1000)
        let outcomeElapsed = clock.monotonicNanoseconds &- startNanoseconds
        let seq = journal.nextSeq
        let line = JournalEntry.encode(
            seq: seq, session: sessionID, timePrefix: timePrefix.text, milliseconds: fraction,
            record: record, delivery: delivery, reason: reason, outcomeElapsed: outcomeElapsed,
            bodyLimit: bodyLimit, into: lineBuffer, headerCache: headerJSON,
            reusing: journal.takeLineToEvict())
        let entry = JournalEntry(
            seq: seq, request: record.request, matched: record.matched, stubID: record.stubID,
            status: delivery.status, outcome: delivery.outcome, rateLimited: record.rateLimited,
            line: line)
        // Memory, then the sink, then waiters; the sink gets the same bytes as the in-memory
        // entry (encoded once, never copied). The entry moves into the journal when no waiter
        // needs it afterwards.
        if waiters.isEmpty {
            journal.append(consume entry)
            sink?.write(line: line)
        } else {
            journal.append(entry)
            sink?.write(line: line)
            wakeWaiters(for: entry)
        }
    }

    /// Writes an entry made elsewhere (a webhook attempt's, `JournalRecorder+Outbound.swift`)
    /// as ``record(_:_:reason:)`` writes its own: memory, the sink, then waiters.
    func append(_ entry: JournalEntry) {
        journal.append(entry)
        sink?.write(line: entry.line)
        if !waiters.isEmpty { wakeWaiters(for: entry) }
    }

    /// A delivery the contract checker refused, journaled as `refused` with its reason.
    @inline(never)
    static func refused(_ delivery: Delivery, _ reason: String) -> Delivery {
        var refused = delivery
        refused.outcome = .refused
        refused.reason = reason
        return refused
    }

    // MARK: - Clearing

    /// Forgets every entry (the `seq` count and evictions start over); waiters recount.
    func reset() {
        journal.reset()
        if !waiters.isEmpty { recountWaiters() }
    }

    /// Forgets the entries but not the `seq` count; returns how many there were.
    func clear() -> Int {
        let cleared = journal.clear()
        if !waiters.isEmpty { recountWaiters() }
        return cleared
    }
}

/// Forwards batches to the journal sink when it can batch (``JournalFileWriter`` can); other
/// sinks keep getting every line as it is made.
extension JournalRecorder: JournalBatching {
    func beginJournalBatch() {
        sinkBatching?.beginJournalBatch()
    }

    func endJournalBatch() {
        sinkBatching?.endJournalBatch()
    }
}

@available(*, unavailable)
extension JournalRecorder: Sendable {}
