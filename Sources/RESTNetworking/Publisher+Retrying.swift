extension Publisher where Output == HTTPResponseOutput, Failure == any Error {
    /// Checks for HTTP errors, and on each failure asks `policy` whether to try again and when.
    /// The delay runs on `scheduler`; cancelling during it cancels the timer, so nothing more is
    /// sent. Every subscription starts its own count and elapsed time.
    public func retrying(
        using policy: some RetryDeciding, scheduler: any RetryScheduler = .system,
        onRetry: RetryObserver? = nil
    ) -> HTTPRequestPublisher {
        let checked = catchHTTPErrors()
        let method = checked.method
        let publisher = Deferred { () -> AnyPublisher<Output, Failure> in
            let start = scheduler.now
            let cancellation = CancellationFlag()
            func attempt(_ retriesSoFar: Int) -> AnyPublisher<Output, Failure> {
                checked.catch { error -> AnyPublisher<Output, Failure> in
                    let context = RetryContext(
                        retriesSoFar: retriesSoFar, error: error, elapsed: scheduler.now - start,
                        method: method, randomUnit: Double.random(in: 0..<1))
                    switch policy.decision(for: context) {
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
        return HTTPRequestPublisher(method: method, publisher)
    }
}
