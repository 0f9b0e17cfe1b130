import UnderstudyCore
import UnderstudyJSON

extension StubRecorder {
    /// The stubs for what `journal` holds after `since`: every entry a stub answered (unmatched
    /// requests, faults, refusals and clients that left are not answers to record). An entry whose
    /// response body the journal cut throws, naming it: nothing is recorded from part of a body.
    static func record(journal: [JournalEntry], options: RecordingOptions, since: Int = 0) throws(RecordingError)
        -> RecordedStubs
    {
        var entries: [JSONValue] = []
        journal.forEach { entry in
            guard entry.seq > since, entry.matched, let value = JSONValue.parse(Array(entry.json)) else { return }
            entries.append(value)
        }
        var exchanges: [RecordedExchange] = []
        var skipped: [String] = []
        for entry in entries {
            // An event stream's journal entry holds its head only (the events are paced later).
            if entry["stream"]?.stringValue == "events" {
                let what = "\(entry["method"]?.stringValue ?? "") \(entry["path"]?.stringValue ?? "")"
                skipped.append(
                    "journal entry \(entry["seq"]?.intValue ?? 0) (\(what)): an event stream's events are not "
                        + "journaled, so it is not recorded")
                continue
            }
            // A proxying stub's own 502 when the upstream failed is not the API's answer.
            if let failure = entry["proxied"]?["error"]?.stringValue {
                let what = "\(entry["method"]?.stringValue ?? "") \(entry["path"]?.stringValue ?? "")"
                skipped.append(
                    "journal entry \(entry["seq"]?.intValue ?? 0) (\(what)): the upstream did not answer (\(failure)), "
                        + "so it is not recorded")
                continue
            }
            if let exchange = try RecordedExchange(journalEntry: entry) { exchanges.append(exchange) }
        }
        var recorded = record(exchanges, options: options)
        recorded.warnings = skipped + recorded.warnings
        return recorded
    }
}
