/// The engine as the admin API sees it (``EngineControl``): the only door its handlers use.
extension StubEngine: EngineControl {
    /// Adds validated stubs as `POST /__admin/stubs` does: an id already loaded is replaced in
    /// place (its sequence restarts), stubs without an id get `admin-N`. Returns the ids added
    /// and replaced.
    @discardableResult
    public func add(_ posted: StubSet) -> (added: [String], replaced: [String]) {
        var added: [String] = [], replaced: [String] = []
        var newStubs = stubs
        var newRuntimes = runtimes
        for var stub in posted.stubs {
            if stub.idGenerated {
                repeat {
                    adminStubCounter += 1
                    stub.id = "admin-\(adminStubCounter)"
                } while newStubs.contains { $0.id == stub.id }
            }
            if let existing = newStubs.firstIndex(where: { $0.id == stub.id }) {
                newStubs[existing] = stub
                newRuntimes[existing] = StubRuntime()
                replaced.append(stub.id)
            } else {
                newStubs.append(stub)
                newRuntimes.append(StubRuntime())
                added.append(stub.id)
            }
        }
        install(newStubs, runtimes: newRuntimes)
        return (added, replaced)
    }

    /// Swaps in an edited stub list, keeping the state of stubs and scenarios that remain.
    func install(_ newStubs: [Stub], runtimes newRuntimes: [StubRuntime]) {
        replaceStubs(StubSet(stubs: newStubs), keepingScenarios: true)
        runtimes = newRuntimes
    }

    func clearJournal() -> Int {
        recorder.clear()
    }

    var waiterCount: Int { recorder.waiters.count }

    func addWaiter(_ waiter: JournalWaiter) {
        recorder.waiters.append(waiter)
    }

    func removeWaiter(_ waiter: JournalWaiter) {
        recorder.waiters.removeAll { $0 === waiter }
    }

    func setScenario(_ name: String, to state: String) {
        scenarios.set(name, to: state)
    }

    func resetScenarios() {
        scenarios.reset()
    }
}
