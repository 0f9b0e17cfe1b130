/// The state of every scenario the loaded stubs mention. Every scenario starts in `"Started"`.
struct ScenarioBook {
    static let initialState = "Started"

    /// Scenario name → every state mentioned by the stubs, `"Started"` first.
    private(set) var knownStates: [String: [String]] = [:]
    /// Scenario names in the order stubs first mention them.
    private(set) var names: [String] = []
    private var current: [String: String] = [:]

    init(stubs: [Stub]) {
        for stub in stubs {
            guard let scenario = stub.scenario else { continue }
            if knownStates[scenario] == nil {
                knownStates[scenario] = [Self.initialState]
                names.append(scenario)
            }
            for state in [stub.whenState, stub.setState].compactMap({ $0 })
            where !knownStates[scenario]!.contains(state) {
                knownStates[scenario]!.append(state)
            }
        }
    }

    /// Rebuilds the list of known scenarios for new stubs, keeping the state of scenarios that
    /// still exist.
    mutating func adopt(stubs: [Stub]) {
        let previous = current
        self = ScenarioBook(stubs: stubs)
        for (name, state) in previous where knownStates[name] != nil {
            current[name] = state
        }
    }

    func state(of scenario: String) -> String {
        current[scenario] ?? Self.initialState
    }

    mutating func set(_ scenario: String, to state: String) {
        current[scenario] = state
    }

    mutating func reset() {
        current.removeAll()
    }
}
