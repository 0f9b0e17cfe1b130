extension Publisher where Output == HTTPResponseOutput, Failure == any Error {
    /// Fails with an `HTTPClientError` for a 4xx response and an `HTTPServerError` for a 5xx one
    /// (429 and 503 carry their `Retry-After`); passes every other response through.
    public func catchHTTPErrors() -> HTTPRequestPublisher {
        asHTTPRequestPublisher.mapAttempts { $0.tryMap(HTTPResponseValidation.validate) }
    }
}
