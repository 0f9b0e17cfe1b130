/// A loaded stub and how far it has got, from `GET /__admin/stubs`.
public struct StubStatus: Codable, Sendable, Equatable {
    /// The stub's id.
    public var id: String
    /// The file it came from (`<admin>` for stubs added over the API).
    public var file: String?
    /// Its `request` as written.
    public var request: JSONValue?
    /// How many responses its sequence has.
    public var responses: Int
    /// What it does after its last response: `"repeat"`, `"cycle"` or `"exhaust"`.
    public var afterLast: String?
    /// The index of the response the next match gets; `nil` once exhausted.
    public var nextResponseIndex: Int?
    /// How many requests it has answered.
    public var timesServed: Int
    /// Whether it has stopped matching (`afterLast: "exhaust"` after its last response).
    public var exhausted: Bool
    /// The scenario it belongs to.
    public var scenario: String?
    /// The state its scenario must be in for it to match.
    public var whenState: String?
    /// The state it moves its scenario to after answering.
    public var setState: String?
    /// Its `rateLimit`, as written.
    public var rateLimit: JSONValue?
}
