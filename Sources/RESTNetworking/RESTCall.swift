/// One HTTP exchange for async/await code, with the same operators as the publishers:
///
/// ```swift
/// let (data, response) = try await api.call(.get, endpoint: "posts")
///     .respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 2)
///     .response()
/// ```
///
/// A `RESTCall` is a description: nothing is sent until `response()`, and every attempt sends
/// the request anew. Task cancellation stops it, including in the middle of a retry delay.
public struct RESTCall: Sendable {
    /// The request's method, when known.
    public let method: HTTPMethod?
    private let perform: @Sendable () async throws -> HTTPResponseOutput

    /// Wraps any async operation producing an HTTP exchange.
    public init(method: HTTPMethod?, _ perform: @escaping @Sendable () async throws -> HTTPResponseOutput) {
        self.method = method
        self.perform = perform
    }

    /// Sends the request (with whatever retries the operators add) and returns the exchange.
    public func response() async throws -> HTTPResponseOutput {
        try await perform()
    }

    /// Fails with `HTTPClientError`/`HTTPServerError` for 4xx/5xx responses.
    public func catchHTTPErrors() -> RESTCall {
        RESTCall(method: method) { [perform] in try HTTPResponseValidation.validate(try await perform()) }
    }

    /// Checks for HTTP errors and retries failures as `policy` decides, sleeping on `scheduler`.
    public func retrying(
        using policy: some RetryDeciding, scheduler: any RetryScheduler = .system,
        onRetry: RetryObserver? = nil
    ) -> RESTCall {
        let checked = catchHTTPErrors()
        let method = self.method
        return RESTCall(method: method) {
            let start = scheduler.now
            var retriesSoFar = 0
            while true {
                try Task.checkCancellation()
                do {
                    return try await checked.response()
                } catch {
                    if error is CancellationError { throw error }
                    let context = RetryContext(
                        retriesSoFar: retriesSoFar, error: error, elapsed: scheduler.now - start,
                        method: method, randomUnit: Double.random(in: 0..<1))
                    guard case let .retry(delay) = policy.decision(for: context) else { throw error }
                    retriesSoFar += 1
                    onRetry?(RetryEvent(retry: retriesSoFar, error: error, delay: delay))
                    try await scheduler.sleep(for: delay)
                }
            }
        }
    }

    /// See `Publisher.respondToRateLimiting(maxRetries:maxSecondsToWait:scheduler:onRetry:)`.
    public func respondToRateLimiting(
        maxRetries: Int = 1, maxSecondsToWait: TimeInterval = 1,
        scheduler: any RetryScheduler = .system,
        onRetry: RetryObserver? = nil
    ) -> RESTCall {
        retrying(
            using: RateLimitPolicy(maxRetries: maxRetries, maxSecondsToWait: maxSecondsToWait),
            scheduler: scheduler, onRetry: onRetry)
    }

    /// See `Publisher.retryOnFailure(policy:scheduler:onRetry:)`.
    public func retryOnFailure(
        policy: RetryPolicy = .default, scheduler: any RetryScheduler = .system,
        onRetry: RetryObserver? = nil
    ) -> RESTCall {
        retrying(using: policy, scheduler: scheduler, onRetry: onRetry)
    }

    /// See `Publisher.retryOnUnauthorized(refreshingWith:)`.
    public func retryOnUnauthorized(refreshingWith refresher: AccessTokenRefresher) -> RESTCall {
        let checked = catchHTTPErrors()
        return RESTCall(method: method) {
            let generation = refresher.generation
            do {
                return try await checked.response()
            } catch  where AccessTokenRefresher.shouldRefresh(after: error) {
                _ = try await refresher.token(replacingGeneration: generation)
                return try await checked.response()
            }
        }
    }
}
