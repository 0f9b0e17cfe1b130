/// A request that could not be made or whose answer was not HTTP at all.
public enum RESTRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The base URL cannot be sent to (no `http`/`https` scheme, no host, a host with characters
    /// a host name cannot have, a port outside 1–65535), or `endpoint` does not form a URL with it.
    /// Raised before anything is sent, so "your URL is wrong" is never mistaken for a network
    /// failure. `reason` says which rule was broken.
    case invalidURL(baseURL: String, endpoint: String, reason: String)
    /// The session returned a response that is not an `HTTPURLResponse`.
    case notHTTPResponse(url: String)

    public var description: String {
        switch self {
        case let .invalidURL(base, endpoint, reason):
            "cannot send `\(endpoint)` with base URL `\(base)`: \(reason)"
        case let .notHTTPResponse(url): "the response for \(url) is not an HTTP response"
        }
    }
}
