extension HTTPURLResponse {
    /// The wait this response's `Retry-After` asks for, in seconds, resolved against its `Date`
    /// header; `nil` when the header is absent or unreadable.
    public func retryAfterSeconds(now: Date = Date()) -> TimeInterval? {
        guard let header = value(forHTTPHeaderField: "Retry-After") else { return nil }
        let responseDate = value(forHTTPHeaderField: "Date").flatMap { HTTPDate.parse($0, now: now) }
        return RetryAfter.seconds(from: header, responseDate: responseDate, now: now)
    }

    /// The `HTTPError` this response stands for, with its header fields and any `Retry-After`
    /// of a 429, 503 or 403 (a 429 without one: the reset its rate-limit fields announce), or
    /// `nil` when its status is not 4xx/5xx.
    public func httpError(now: Date = Date()) -> (any HTTPError)? {
        guard (400...599).contains(statusCode) else { return nil }
        let retryAfter =
            (statusCode == 429 || statusCode == 503 || statusCode == 403) ? retryAfterSeconds(now: now) : nil
        let headers = HTTPHeaderFields(self)
        if let clientError = HTTPClientError(statusCode: statusCode, retryAfter: retryAfter, headers: headers, now: now)
        {
            return clientError
        }
        return HTTPServerError(statusCode: statusCode, retryAfter: retryAfter, headers: headers, now: now)
    }
}
