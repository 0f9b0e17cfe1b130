/// What a `RequestPacer` believes about one host at a moment: for logs, dashboards and tests.
public struct PacingSnapshot: Sendable, Equatable {
    /// Requests waiting for a permit.
    public var held: Int
    /// Requests on the wire.
    public var inFlight: Int
    /// Requests sent so far.
    public var sent: Int
    /// Requests the budget still allows before the reset (`nil` while unknown or unlimited).
    public var remaining: Int?
    /// Seconds until the budget resets, as last announced (`nil` when not known).
    public var resetIn: TimeInterval?
    /// Whether the host has announced a rate limit the pacer is following.
    public var isLimited: Bool
}
