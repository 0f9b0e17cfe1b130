extension HTTPError {
    /// Whether this answer is the server refusing for rate limiting rather than for good:
    /// - any 429;
    /// - a 403 or 503 with `Retry-After` (GitHub's secondary rate limits, gateways shedding load);
    /// - a 403 with `X-RateLimit-Remaining: 0` (GitHub's primary rate limit:
    ///   docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api).
    ///
    /// A 403 with neither is a plain refusal (`forbidden`), and nothing retries it.
    public var isRateLimited: Bool {
        switch statusCode {
        case 429: return true
        case 503: return retryAfter != nil
        case 403:
            if retryAfter != nil { return true }
            return headers["X-RateLimit-Remaining"].flatMap(RateLimitFields.headerInteger) == 0
        default: return false
        }
    }

    /// How long a rate-limited answer asks the client to wait, in seconds: `Retry-After` when
    /// given, else the reset its rate-limit fields announce (`RateLimit-Reset`, the draft's `t`,
    /// `X-RateLimit-Reset-After`, or `X-RateLimit-Reset` as seconds or as a Unix epoch resolved
    /// against the response's `Date`; see `RateLimitFields`). `nil` when it says neither, or is
    /// not rate limited.
    public var rateLimitWait: TimeInterval? {
        rateLimitWait(now: Date())
    }

    /// `rateLimitWait`, with `now` standing in for the local clock when the response has no `Date`.
    public func rateLimitWait(now: Date) -> TimeInterval? {
        guard isRateLimited else { return nil }
        if let retryAfter { return retryAfter }
        return RateLimitFields(headers: headers, statusCode: statusCode, now: now).reset
    }
}
