/// An HTTP response whose status code is an error (4xx or 5xx).
///
/// **Equality.** Two `HTTPClientError`s (or two `HTTPServerError`s) are equal when their status
/// codes are: the status is the error's identity, and `retryAfter` and `headers` are details it
/// carries. So `.tooManyRequests()` equals a 429 that came with `Retry-After: 2`, and
/// `.forbidden` equals a 403 whatever its headers said; `tryCatch(HTTPClientError.tooManyRequests()) { ... }`
/// catches every 429. Read the details through `retryAfter`, `headers` and `isRateLimited` when
/// they matter. `Hashable` agrees: errors hash by status code.
public protocol HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response's status code.
    var statusCode: Int { get }
    /// The wait the server asked for (`Retry-After`, in seconds) on a 429, 503 or 403, if any.
    var retryAfter: TimeInterval? { get }
    /// The response's header fields (empty for an error made in code rather than from a response).
    var headers: HTTPHeaderFields { get }
}

extension HTTPError {
    /// Equal status codes; `retryAfter` and `headers` are not compared. (A protocol extension's
    /// `==` is used in preference to a synthesized one, so the types get this, not member-wise equality.)
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.statusCode == rhs.statusCode
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(statusCode)
    }
}
