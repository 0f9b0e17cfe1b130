import UnderstudyHTTP

/// What the admin API may see and do to an engine: stubs, journal, waits, scenarios, reset. The
/// handlers in ``AdminRoutes`` reach the engine only through this, so the engine's serving state
/// stays its own. ``StubEngine`` conforms in `StubEngine+EngineControl.swift`.
protocol EngineControl: AnyObject {
    var configuration: EngineConfiguration { get }
    /// The world's clock (`/__admin/clock`).
    var clock: WorldClock { get }

    /// The loaded stubs in load order, and each one's sequence, scenario and rate-limit state.
    var stubs: [Stub] { get }
    var runtimes: [StubRuntime] { get }
    /// Adds stubs as `POST /__admin/stubs` does (same id: replaced in place).
    @discardableResult
    func add(_ posted: StubSet) -> (added: [String], replaced: [String])
    /// Swaps in an edited stub list, keeping the state of stubs and scenarios that remain.
    func install(_ stubs: [Stub], runtimes: [StubRuntime])

    var journal: Journal { get }
    /// Empties the journal; returns how many entries it held.
    func clearJournal() -> Int
    /// Requests answered but not yet journaled (their answer waits on a delay).
    var awaitingDelivery: Int { get }

    /// Pending `requests/wait` long polls, completed as entries are journaled.
    var waiterCount: Int { get }
    func addWaiter(_ waiter: JournalWaiter)
    func removeWaiter(_ waiter: JournalWaiter)

    var scenarios: ScenarioBook { get }
    func setScenario(_ name: String, to state: String)
    func resetScenarios()

    /// Journal, sequences, scenarios and rate limits back to the start; stubs stay.
    func reset()

    /// Why the stubs miss a request, ranked, over the stubs and states as they are now.
    var nearMissRanking: NearMissRanking { get }

    /// The world's webhook deliveries, oldest first (`/__admin/webhooks`).
    var webhookDeliveries: [WebhookDelivery] { get }
    /// Sends a webhook with no triggering request (`POST /__admin/webhooks`).
    func fireWebhook(_ hook: WebhookSetting, for request: HTTPRequest) -> WebhookDelivery

    /// The WireMock mappings loading left out, for `GET /__admin/health`.
    var skippedMappings: [SkippedMapping] { get }
}
