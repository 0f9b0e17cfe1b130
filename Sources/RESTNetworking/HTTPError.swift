/// An HTTP response whose status code is an error (4xx or 5xx).
///
/// **Equality.** Two `HTTPClientError`s (or two `HTTPServerError`s) are equal when their status
/// codes are: the status is the error's identity, and `retryAfter` is a detail it carries. So
/// `.tooManyRequests()` equals a 429 that came with `Retry-After: 2`, as in the seed layer, and
/// `tryCatch(HTTPClientError.tooManyRequests()) { ... }` catches every 429. Read the wait through
/// `retryAfter` (or bind it: `case let HTTPClientError.tooManyRequests(retryAfter?)`) when it matters.
/// `Hashable` agrees: errors hash by status code.
public protocol HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response's status code.
    var statusCode: Int { get }
    /// The wait the server asked for (`Retry-After`, in seconds) on a 429 or 503, if any.
    var retryAfter: TimeInterval? { get }
}

extension HTTPError {
    /// Equal status codes; `retryAfter` is not compared. (A protocol extension's `==` is used in
    /// preference to a synthesized one, so the enums get this, not member-wise equality.)
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.statusCode == rhs.statusCode
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(statusCode)
    }
}
