/// What `GET /__admin/requests/wait` answered: the matching entries once there were enough, or
/// whatever there was when the time ran out.
public struct RequestWait: Codable, Sendable {
    /// Matching entries, in ascending `seq`.
    public var requests: [RecordedRequest]
    /// How many entries matched.
    public var total: Int
    /// Whether the deadline passed before `count` entries matched.
    public var timedOut: Bool
}
