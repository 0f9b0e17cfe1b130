/// Decides retries after the server refused for rate limiting (`HTTPError.isRateLimited`): a
/// `429 Too Many Requests`; a 403 or 503 with `Retry-After`; a 403 with `X-RateLimit-Remaining: 0`.
///
/// - With a wait no longer than `maxSecondsToWait`: wait exactly that long. The wait is
///   `Retry-After` when given, else the reset the rate-limit fields announce (`RateLimit-Reset`,
///   the draft's `t`, `X-RateLimit-Reset-After`, or `X-RateLimit-Reset` as seconds or as a Unix
///   epoch, told apart by magnitude: see `RateLimitFields`).
/// - With a longer wait: fail at once with the refusal. Retrying sooner than the server asked
///   would only earn another refusal, and waiting longer than the caller allowed is not an option.
/// - With neither: exponential backoff from `initialBackoff`, capped by `maxSecondsToWait`, with
///   "equal jitter" (half fixed, half random) so a burst of clients spreads out but none retries
///   immediately.
/// - Any other error, a plain 403 among them: not this policy's business; it fails unchanged.
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
        guard let error = context.error as? any HTTPError, error.isRateLimited,
            context.retriesSoFar < maxRetries
        else { return .fail }
        if let wait = error.rateLimitWait {
            return wait <= maxSecondsToWait ? .retry(after: wait) : .fail
        }
        let exponential = initialBackoff * pow(2, Double(context.retriesSoFar))
        let cap = min(maxSecondsToWait, exponential)
        return .retry(after: cap / 2 + context.randomUnit * cap / 2)
    }
}
