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
}

extension AdminCall {
    /// The engine as an adapter's handler may use it.
    package var adminEngine: AdminEngine { AdminEngine(engine) }
}
