extension Publisher where Output == HTTPResponseOutput, Failure == any Error {
    /// Fails with an `HTTPClientError` for a 4xx response and an `HTTPServerError` for a 5xx one
    /// (429 and 503 carry their `Retry-After`); passes every other response through.
    public func catchHTTPErrors() -> HTTPRequestPublisher {
        let upstream = asHTTPRequestPublisher
        return HTTPRequestPublisher(method: upstream.method, upstream.tryMap(HTTPResponseValidation.validate))
    }
}
