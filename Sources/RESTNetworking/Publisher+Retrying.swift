extension Publisher where Output == HTTPResponseOutput, Failure == any Error {
    /// Checks for HTTP errors, and on each failure asks `policy` whether to try again and when.
    /// The delay runs on `scheduler`; cancelling during it cancels the timer, so nothing more is
    /// sent. Every subscription starts its own count and elapsed time, and gives all its attempts
    /// one idempotency key (see `IdempotencyKeys`).
    public func retrying(
        using policy: some RetryDeciding, scheduler: any RetryScheduler = .system,
        onRetry: RetryObserver? = nil
    ) -> HTTPRequestPublisher {
        let upstream = asHTTPRequestPublisher
        let method = upstream.method
        return HTTPRequestPublisher(
            method: method,
            scoped: { outer in
                Deferred { () -> AnyPublisher<Output, Failure> in
                    let round = RetryRound(policy: policy, scheduler: scheduler, method: method, joining: outer)
                    let cancellation = CancellationFlag()
                    func attempt(_ retriesSoFar: Int) -> AnyPublisher<Output, Failure> {
                        upstream.attempts(in: round.scope).tryMap(round.check).catch {
                            error -> AnyPublisher<Output, Failure> in
                            switch round.decision(after: error, retriesSoFar: retriesSoFar) {
                            case .fail:
                                return Fail(error: error).eraseToAnyPublisher()
                            case let .retry(delay):
                                return cancellation.unlessCancelled {
                                    onRetry?(RetryEvent(retry: retriesSoFar + 1, error: error, delay: delay))
                                    return CallbackPublisher.delay(delay, on: scheduler, unless: cancellation)
                                        .flatMap { cancellation.unlessCancelled { attempt(retriesSoFar + 1) } }
                                        .eraseToAnyPublisher()
                                }
                            }
                        }
                        .eraseToAnyPublisher()
                    }
                    return attempt(0).settingOnCancel(cancellation)
                }
                .eraseToAnyPublisher()
            })
    }
}
