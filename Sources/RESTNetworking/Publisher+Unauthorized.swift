extension Publisher where Output == HTTPResponseOutput, Failure == any Error {
    /// On `401 Unauthorized`, has `refresher` fetch a fresh access token and sends the request
    /// once more (the request modifier runs again, so it can read `refresher.accessToken`).
    ///
    /// Refreshing is single-flight: requests that fail with 401 together share one refresh and
    /// all retry with its token; if it fails, they all fail with its error. A 401 on the retry is
    /// final.
    public func retryOnUnauthorized(refreshingWith refresher: AccessTokenRefresher) -> HTTPRequestPublisher {
        let checked = catchHTTPErrors()
        return HTTPRequestPublisher(
            method: checked.method,
            scoped: { scope in
                Deferred { () -> AnyPublisher<Output, Failure> in
                    let generation = refresher.generation
                    let cancellation = CancellationFlag()
                    let attempt = checked.attempts(in: scope)
                    return attempt.catch { error -> AnyPublisher<Output, Failure> in
                        guard AccessTokenRefresher.shouldRefresh(after: error) else {
                            return Fail(error: error).eraseToAnyPublisher()
                        }
                        return CallbackPublisher<String> { completion in
                            refresher.token(replacingGeneration: generation, completion: completion)
                        }
                        .flatMap { _ in cancellation.unlessCancelled { checked.attempts(in: scope) } }
                        .eraseToAnyPublisher()
                    }
                    .settingOnCancel(cancellation)
                }
                .eraseToAnyPublisher()
            })
    }

    /// The design notes' name for `retryOnUnauthorized(refreshingWith:)`.
    public func catchUnauthorizedAndRetryRequestWithFreshAccessToken(
        refreshingWith refresher: AccessTokenRefresher
    ) -> HTTPRequestPublisher {
        retryOnUnauthorized(refreshingWith: refresher)
    }
}
