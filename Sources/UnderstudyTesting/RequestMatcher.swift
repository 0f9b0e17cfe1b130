/// A request matcher, the same shape as a stub's `request`, for `count(matching:)`.
public struct RequestMatcher: Codable, Sendable, Equatable {
    /// The method, case-insensitive; `nil` matches any.
    public var method: String?
    /// The exact path, percent-decoded.
    public var path: String?
    /// A regular expression the whole decoded path must match.
    public var pathPattern: String?
    /// Query parameter name → matcher.
    public var query: [String: ValueMatcher]?
    /// Header name (any case) → matcher.
    public var headers: [String: ValueMatcher]?
    /// A body matcher (`{"contains": "x"}`, `{"jsonSubset": {...}}`…), as JSON.
    public var body: JSONValue?

    /// A matcher in the shape of a stub's `request`; `nil` leaves a condition out.
    public init(
        method: String? = nil, path: String? = nil, pathPattern: String? = nil,
        query: [String: ValueMatcher]? = nil, headers: [String: ValueMatcher]? = nil, body: JSONValue? = nil
    ) {
        self.method = method
        self.path = path
        self.pathPattern = pathPattern
        self.query = query
        self.headers = headers
        self.body = body
    }
}
