/// Reported just before a retry is scheduled: for logging, metrics, or tests that check the
/// wait against what the server asked.
public struct RetryEvent: Sendable {
    /// 1 for the first retry.
    public var retry: Int
    /// The error that caused it.
    public var error: any Error
    /// The wait before the retry, in seconds.
    public var delay: TimeInterval
}

/// Receives `RetryEvent`s.
public typealias RetryObserver = @Sendable (RetryEvent) -> Void
