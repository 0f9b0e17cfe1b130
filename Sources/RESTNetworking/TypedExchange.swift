/// A typed call (`EndpointCall`, `EndpointPublisher`): a raw exchange plus how to decode its
/// answer. The operators apply to the exchange; decoding happens once, after all of them.
public protocol TypedExchange {
    /// The untyped exchange underneath, which the operators work on.
    associatedtype Exchange: RetryableExchange
    /// The exchange before decoding.
    var exchange: Exchange { get }
    /// This call with `transform` applied to its exchange: any operator, your own included.
    func mapExchange(_ transform: (Exchange) -> Exchange) -> Self
}

extension TypedExchange {
    /// See `RESTCall.retrying(using:scheduler:onRetry:)` / `Publisher.retrying(using:scheduler:onRetry:)`.
    public func retrying(
        using policy: some RetryDeciding, scheduler: any RetryScheduler = .system,
        onRetry: RetryObserver? = nil
    ) -> Self {
        mapExchange { $0.retrying(using: policy, scheduler: scheduler, onRetry: onRetry) }
    }

    /// See `respondToRateLimiting(maxRetries:maxSecondsToWait:scheduler:onRetry:)` on the exchange.
    public func respondToRateLimiting(
        maxRetries: Int = 1, maxSecondsToWait: TimeInterval = 1,
        scheduler: any RetryScheduler = .system,
        onRetry: RetryObserver? = nil
    ) -> Self {
        retrying(
            using: RateLimitPolicy(maxRetries: maxRetries, maxSecondsToWait: maxSecondsToWait),
            scheduler: scheduler, onRetry: onRetry)
    }

    /// See `retryOnFailure(policy:scheduler:onRetry:)` on the exchange.
    public func retryOnFailure(
        policy: RetryPolicy = .default, scheduler: any RetryScheduler = .system,
        onRetry: RetryObserver? = nil
    ) -> Self {
        retrying(using: policy, scheduler: scheduler, onRetry: onRetry)
    }

    /// See `retryOnUnauthorized(refreshingWith:)` on the exchange.
    public func retryOnUnauthorized(refreshingWith refresher: AccessTokenRefresher) -> Self {
        mapExchange { $0.retryOnUnauthorized(refreshingWith: refresher) }
    }
}
