extension StubRecorder {
    /// The stubs for what `journal` holds after `since`: every entry a stub answered (unmatched
    /// requests, faults, refusals and clients that left are not answers to record). An entry whose
    /// response body the journal cut throws, naming it: nothing is recorded from part of a body.
    static func record(journal: Journal, options: RecordingOptions, since: Int = 0) throws(RecordingError)
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

/// What `understudy record` was started with: where the stubs go and how they are made. The
/// engine carries it (``EngineConfiguration/recording``) so `POST /__admin/recordings/stop` can
/// write them; `stopped` then lets the command finish.
public final class RecordingPlan {
    /// The directory the stubs are written to.
    public let out: String
    /// How exchanges become stubs.
    public let options: RecordingOptions
    /// Called once the stop route has written the stubs (the command stops its server).
    public let stopped: () -> Void
    /// Whether `POST /__admin/recordings/stop` has written the stubs (a recording session shows
    /// it, so `understudy record --session` knows to delete the session and finish).
    public internal(set) var written = false

    /// A plan writing to `out` with `options`; `stopped` runs after `POST /__admin/recordings/stop` wrote.
    public init(out: String, options: RecordingOptions, stopped: @escaping () -> Void = {}) {
        self.out = out
        self.options = options
        self.stopped = stopped
    }
}
