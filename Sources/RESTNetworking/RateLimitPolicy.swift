/// Decides retries after `429 Too Many Requests`.
///
/// - With a `Retry-After` no longer than `maxSecondsToWait`: wait exactly that long.
/// - With a longer `Retry-After`: fail at once with the 429. Retrying sooner than the server asked
///   would only earn another 429, and waiting longer than the caller allowed is not an option.
/// - Without `Retry-After`: exponential backoff from `initialBackoff`, capped by
///   `maxSecondsToWait`, with "equal jitter" (half fixed, half random) so a burst of clients
///   spreads out but none retries immediately.
/// - Any other error: not this policy's business; it fails unchanged.
public struct RateLimitPolicy: RetryDeciding, Equatable {
    /// How many times a 429 is retried.
    public var maxRetries: Int
    /// The longest `Retry-After` waited out; a longer one fails with the 429 at once.
    public var maxSecondsToWait: TimeInterval
    /// The first backoff when a 429 carries no `Retry-After`; it doubles for each retry.
    public var initialBackoff: TimeInterval

    /// A policy with these limits.
    public init(maxRetries: Int = 1, maxSecondsToWait: TimeInterval = 1, initialBackoff: TimeInterval = 0.25) {
        self.maxRetries = maxRetries
        self.maxSecondsToWait = maxSecondsToWait
        self.initialBackoff = initialBackoff
    }

    /// Retry a 429 after its `Retry-After` (or a backoff), within the limits; fail anything else.
    public func decision(for context: RetryContext) -> RetryDecision {
        guard case let HTTPClientError.tooManyRequests(retryAfter) = context.error,
              context.retriesSoFar < maxRetries else { return .fail }
        if let retryAfter {
            return retryAfter <= maxSecondsToWait ? .retry(after: retryAfter) : .fail
        }
        let exponential = initialBackoff * pow(2, Double(context.retriesSoFar))
        let cap = min(maxSecondsToWait, exponential)
        return .retry(after: cap / 2 + context.randomUnit * cap / 2)
    }
}
