/// The bounds on sessions: how many may be alive at once and how long a forgotten one lives.
public struct SessionLimits: Sendable {
    /// The default cap. Each idle session costs a listening socket and a few kilobytes, so a
    /// thousand fit easily in memory and in the default open-file limit once it is raised; a
    /// parallel test run needs one per test running at the same time, far fewer.
    public static let defaultMaxSessions = 1_000
    /// The default idle timeout, in seconds: longer than any single test's pause (a breakpoint, a
    /// slow CI step), short enough that sessions of a killed test process are gone within minutes.
    public static let defaultIdleTimeoutSeconds = 600.0

    /// Sessions alive at once; creating one more answers 503.
    public var maxSessions: Int
    /// Seconds without a request after which a session is deleted; `nil` keeps sessions until
    /// they are deleted.
    public var idleTimeoutSeconds: Double?

    /// Limits as `understudy serve` sets them; a negative `maxSessions` counts as 0 (no sessions),
    /// and an `idleTimeoutSeconds` of 0 or less (or `nil`) keeps sessions until they are deleted.
    public init(
        maxSessions: Int = SessionLimits.defaultMaxSessions,
        idleTimeoutSeconds: Double? = SessionLimits.defaultIdleTimeoutSeconds
    ) {
        self.maxSessions = max(0, maxSessions)
        self.idleTimeoutSeconds = idleTimeoutSeconds.flatMap { $0 > 0 ? $0 : nil }
    }

    /// How often the transport should call ``SessionRegistry/reclaimIdle()``: a quarter of the
    /// timeout (so a session goes at most 25 % late), at least every 5 s and at most every 10 ms.
    public var sweepIntervalSeconds: Double? {
        idleTimeoutSeconds.map { min(5, max(0.01, $0 / 4)) }
    }
}
