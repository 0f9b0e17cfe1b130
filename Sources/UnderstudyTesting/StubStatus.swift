/// A loaded stub and how far it has got, from `GET /__admin/stubs`.
public struct StubStatus: Codable, Sendable, Equatable {
    public var id: String
    /// The file it came from (`<admin>` for stubs added over the API).
    public var file: String?
    /// Its `request` as written.
    public var request: JSONValue?
    /// How many responses its sequence has.
    public var responses: Int
    public var afterLast: String?
    public var nextResponseIndex: Int?
    public var timesServed: Int
    public var exhausted: Bool
    public var scenario: String?
    public var whenState: String?
    public var setState: String?
    public var rateLimit: JSONValue?
}

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

/// What `POST /__admin/stubs` did.
public struct AddedStubs: Codable, Sendable, Equatable {
    public var added: [String]
    public var replaced: [String]

    public init(added: [String], replaced: [String]) {
        self.added = added
        self.replaced = replaced
    }
}

/// `GET /__admin/health`.
public struct DaemonHealth: Codable, Sendable, Equatable {
    public var status: String
    public var stubs: Int
    public var requests: Int

    public init(status: String, stubs: Int, requests: Int) {
        self.status = status
        self.stubs = stubs
        self.requests = requests
    }
}
