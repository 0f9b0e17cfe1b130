extension Error {
    /// Whether this error is the HTTP error `error` stands for — the same status code, whatever
    /// payload either carries: `error.is(.tooManyRequests())` holds for every 429.
    ///
    /// The same test as a pattern, for `catch` and `switch`, ignores the details too:
    /// `catch HTTPClientError.tooManyRequests { ... }`, `catch HTTPClientError.forbidden { ... }`.
    public func `is`(_ error: HTTPClientError) -> Bool {
        (self as? HTTPClientError) == error
    }

    /// Whether this error is the HTTP error `error` stands for (same status code): see the
    /// `HTTPClientError` overload.
    public func `is`(_ error: HTTPServerError) -> Bool {
        (self as? HTTPServerError) == error
    }
}
