/// An HTTP response whose status code is an error (4xx or 5xx).
public protocol HTTPError: Error, Sendable, CustomStringConvertible {
    /// The response's status code.
    var statusCode: Int { get }
}
