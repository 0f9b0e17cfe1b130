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
    /// One attempt, within the logical call's idempotency scope (`nil` outside any retry operator).
    private let perform: @Sendable (IdempotencyScope?) async throws -> HTTPResponseOutput

    /// Wraps any async operation producing an HTTP exchange.
    public init(method: HTTPMethod?, _ perform: @escaping @Sendable () async throws -> HTTPResponseOutput) {
        self.method = method
        self.perform = { _ in try await perform() }
    }

    /// A call whose attempts take the logical call's idempotency scope (the requests this library builds).
    init(
        method: HTTPMethod?, scoped perform: @escaping @Sendable (IdempotencyScope?) async throws -> HTTPResponseOutput
    ) {
        self.method = method
        self.perform = perform
    }

    /// Sends the request (with whatever retries the operators add) and returns the exchange.
    public func response() async throws -> HTTPResponseOutput {
        try await perform(nil)
    }

    /// One attempt within `scope`, for the operators.
    func response(in scope: IdempotencyScope?) async throws -> HTTPResponseOutput {
        try await perform(scope)
    }

    /// Fails with `HTTPClientError`/`HTTPServerError` for 4xx/5xx responses.
    public func catchHTTPErrors() -> RESTCall {
        RESTCall(
            method: method, scoped: { [perform] scope in try HTTPResponseValidation.validate(try await perform(scope)) }
        )
    }

    /// Checks for HTTP errors and retries failures as `policy` decides, sleeping on `scheduler`.
    /// Every attempt of one `response()` carries the same idempotency key (see `IdempotencyKeys`).
    public func retrying(
        using policy: some RetryDeciding, scheduler: any RetryScheduler = .system,
        onRetry: RetryObserver? = nil
    ) -> RESTCall {
        let method = self.method
        return RESTCall(
            method: method,
            scoped: { [perform] outer in
                let round = RetryRound(policy: policy, scheduler: scheduler, method: method, joining: outer)
                var retriesSoFar = 0
                while true {
                    try Task.checkCancellation()
                    do {
                        return try round.check(try await perform(round.scope))
                    } catch {
                        if error is CancellationError { throw error }
                        guard case let .retry(delay) = round.decision(after: error, retriesSoFar: retriesSoFar) else {
                            throw error
                        }
                        retriesSoFar += 1
                        onRetry?(RetryEvent(retry: retriesSoFar, error: error, delay: delay))
                        try await scheduler.sleep(for: delay)
                    }
                }
            })
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
        return RESTCall(
            method: method,
            scoped: { scope in
                let generation = refresher.generation
                do {
                    return try await checked.response(in: scope)
                } catch  where AccessTokenRefresher.shouldRefresh(after: error) {
                    _ = try await refresher.token(replacingGeneration: generation)
                    return try await checked.response(in: scope)
                }
            })
    }
}
