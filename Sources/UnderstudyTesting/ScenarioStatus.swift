/// A scenario's current state, from `GET /__admin/scenarios`.
public struct ScenarioStatus: Codable, Sendable, Equatable {
    /// The scenario's name.
    public var name: String
    /// Its state now (every scenario starts in `"Started"`).
    public var state: String
    /// Every state the stubs mention, `Started` first.
    public var states: [String]

    /// A scenario in this state.
    public init(name: String, state: String, states: [String]) {
        self.name = name
        self.state = state
        self.states = states
    }
}
