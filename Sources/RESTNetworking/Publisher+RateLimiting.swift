extension Publisher where Output == HTTPResponseOutput, Failure == any Error {
    /// On a rate-limit refusal (a 429; a 403 or 503 with `Retry-After`; a 403 with
    /// `X-RateLimit-Remaining: 0`, as GitHub sends), waits what the server asks (`Retry-After`,
    /// else the announced reset, seconds or epoch) and sends the request again, up to
    /// `maxRetries` times. If the server asks for longer than `maxSecondsToWait`, fails with the
    /// refusal at once rather than retrying early. Without either, backs off exponentially with
    /// jitter, capped by `maxSecondsToWait`. Other errors (401, a plain 403, 5xx…) pass through
    /// untouched. See `RateLimitPolicy`.
    public func respondToRateLimiting(
        maxRetries: Int = 1, maxSecondsToWait: TimeInterval = 1,
        scheduler: any RetryScheduler = .system,
        onRetry: RetryObserver? = nil
    ) -> HTTPRequestPublisher {
        retrying(
            using: RateLimitPolicy(maxRetries: maxRetries, maxSecondsToWait: maxSecondsToWait),
            scheduler: scheduler, onRetry: onRetry)
    }

    /// Retries transient failures (408, 500, 502, 503, 504, lost connections) as `policy` says:
    /// exponential backoff with full jitter, at most `maxAttempts`, within `totalBudget`,
    /// `Retry-After` honoured on 503, idempotent methods only unless the policy allows more.
    public func retryOnFailure(
        policy: RetryPolicy = .default, scheduler: any RetryScheduler = .system,
        onRetry: RetryObserver? = nil
    ) -> HTTPRequestPublisher {
        retrying(using: policy, scheduler: scheduler, onRetry: onRetry)
    }
}
