/// What an admin adapter (another tool's admin API, in a module of its own) may do to the engine:
/// a narrow view over ``EngineControl``, which stays Core's own. Each operation keeps the state of
/// the stubs it leaves in place, as the native handlers do.
package struct AdminEngine {
    let engine: any EngineControl

    init(_ engine: any EngineControl) {
        self.engine = engine
    }

    /// The loaded stubs, in load order.
    package var stubs: [Stub] { engine.stubs }

    /// Keeps the stubs `keep` accepts (with their sequence, scenario and rate-limit state) and
    /// removes the rest.
    package func retainStubs(where keep: (Stub) -> Bool) {
        let stubs = engine.stubs, runtimes = engine.runtimes
        let kept = stubs.indices.filter { keep(stubs[$0]) }
        guard kept.count != stubs.count else { return }
        engine.install(kept.map { stubs[$0] }, runtimes: kept.map { runtimes[$0] })
    }

    /// Replaces the stub with `stub`'s id in place (its state starts afresh), or appends `stub`.
    package func save(_ stub: Stub) {
        var stubs = engine.stubs, runtimes = engine.runtimes
        if let existing = stubs.firstIndex(where: { $0.id == stub.id }) {
            stubs[existing] = stub
            runtimes[existing] = StubRuntime()
        } else {
            stubs.append(stub)
            runtimes.append(StubRuntime())
        }
        engine.install(stubs, runtimes: runtimes)
    }

    /// Removes stub `id` as `DELETE /__admin/stubs/{id}` does (404 when there is none).
    package func deleteStub(_ id: String) -> HTTPResponse {
        StubsAdmin.delete(id, from: engine)
    }

    /// Empties the journal; returns how many entries it held.
    package func clearJournal() -> Int { engine.clearJournal() }

    /// Every scenario back to `Started`.
    package func resetScenarios() { engine.resetScenarios() }

    /// The journal's entries, oldest first.
    package var journalEntries: [JournalEntry] {
        var entries: [JournalEntry] = []
        engine.journal.forEach { entries.append($0) }
        return entries
    }

    /// The journal's entries that pass the filters in `query` (those of `GET /__admin/requests`:
    /// `stub`, `method`, `path`, `matched`, `status`, `since`, `limit`), oldest first; `.failure`
    /// says why the query was refused.
    package func journalEntries(filteredBy query: String?) -> Result<[JournalEntry], RecordingSupport.Refusal> {
        let filter: JournalFilter
        switch JournalFilter.parse(query) {
        case .success(let parsed): filter = parsed
        case .failure(let invalid): return .failure(RecordingSupport.Refusal(invalid.message))
        }
        var entries: [JournalEntry] = []
        engine.journal.forEach { entry in
            guard entries.count < filter.limit, filter.matches(entry) else { return }
            entries.append(entry)
        }
        return .success(entries)
    }

    /// The recording this world was started with (``EngineConfiguration/recording``), if any.
    package var recording: RecordingPlan? { engine.configuration.recording }
}

extension AdminCall {
    /// The engine as an adapter's handler may use it.
    package var adminEngine: AdminEngine { AdminEngine(engine) }
}
