/// A scenario's current state, from `GET /__admin/scenarios`.
public struct ScenarioStatus: Codable, Sendable, Equatable {
    public var name: String
    public var state: String
    /// Every state the stubs mention, `Started` first.
    public var states: [String]

    public init(name: String, state: String, states: [String]) {
        self.name = name
        self.state = state
        self.states = states
    }
}
