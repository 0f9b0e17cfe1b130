extension Publisher where Failure == any Error {
    /// Handles one specific failure: when this publisher fails with an error equal to `error`
    /// (same type, `==`), `handler` gets the error as it arrived and returns the publisher to
    /// continue with (or throws); every other failure passes through untouched.
    ///
    /// HTTP errors are equal by status code, so `tryCatch(HTTPClientError.tooManyRequests())`
    /// catches every 429, whatever its `Retry-After`, and the handler reads the wait from the error.
    public func tryCatch<E: Error & Equatable, P: Publisher>(
        _ error: E, _ handler: @escaping (E) throws -> P
    ) -> Publishers.TryCatch<Self, P> where P.Output == Output {
        tryCatch { failure -> P in
            guard let caught = failure as? E, caught == error else { throw failure }
            return try handler(caught)
        }
    }
}

extension Publisher where Output == HTTPResponseOutput, Failure == any Error {
    /// `tryCatch(_:_:)` for HTTP exchanges: applies `catchHTTPErrors()` first (so a 4xx/5xx can be
    /// the error caught) and keeps the request's method for the operators after it.
    public func tryCatch<E: Error & Equatable, P: Publisher>(
        _ error: E, _ handler: @escaping (E) throws -> P
    ) -> HTTPRequestPublisher where P.Output == HTTPResponseOutput {
        catchHTTPErrors().mapAttempts { attempts in
            // Typed so that overload resolution picks the general form above, not this one again.
            let caught: Publishers.TryCatch<AnyPublisher<Output, Failure>, P> = attempts.tryCatch(error, handler)
            return caught
        }
    }
}
