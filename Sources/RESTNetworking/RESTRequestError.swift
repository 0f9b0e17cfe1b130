/// A request that could not be made or whose answer was not HTTP at all.
public enum RESTRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `endpoint` could not be resolved against `baseURL` into a URL.
    case invalidURL(baseURL: String, endpoint: String)
    /// The session returned a response that is not an `HTTPURLResponse`.
    case notHTTPResponse(url: String)

    public var description: String {
        switch self {
        case let .invalidURL(base, endpoint): "cannot resolve endpoint `\(endpoint)` against base URL \(base)"
        case let .notHTTPResponse(url): "the response for \(url) is not an HTTP response"
        }
    }
}
