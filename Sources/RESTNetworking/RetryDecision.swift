/// What a retry policy decides after a failed attempt.
public enum RetryDecision: Sendable, Equatable {
    /// Send the request again after this many seconds.
    case retry(after: TimeInterval)
    /// Stop, and fail with the error the attempt failed with.
    case fail
}
