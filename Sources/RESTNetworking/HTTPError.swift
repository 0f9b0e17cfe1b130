/// An HTTP response whose status code is an error (4xx or 5xx).
public protocol HTTPError: Error, Sendable, CustomStringConvertible {
    /// The response's status code.
    var statusCode: Int { get }
}

extension HTTPError {
    /// Builds the error a status code stands for, or `nil` for anything that is not 4xx/5xx.
    /// `retryAfter` is kept by the cases that carry it (429 and 503).
    public static func forStatus(_ statusCode: Int, retryAfter: TimeInterval? = nil) -> (any HTTPError)? {
        HTTPClientError(statusCode: statusCode, retryAfter: retryAfter)
            ?? HTTPServerError(statusCode: statusCode, retryAfter: retryAfter)
    }
}
