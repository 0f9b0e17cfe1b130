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
