/// A request matcher, the same shape as a stub's `request`, for `count(matching:)`.
public struct RequestMatcher: Codable, Sendable, Equatable {
    public var method: String?
    public var path: String?
    public var pathPattern: String?
    public var query: [String: ValueMatcher]?
    public var headers: [String: ValueMatcher]?
    /// A body matcher (`{"contains": "x"}`, `{"jsonSubset": {...}}`…), as JSON.
    public var body: JSONValue?

    public init(method: String? = nil, path: String? = nil, pathPattern: String? = nil,
                query: [String: ValueMatcher]? = nil, headers: [String: ValueMatcher]? = nil, body: JSONValue? = nil) {
        self.method = method
        self.path = path
        self.pathPattern = pathPattern
        self.query = query
        self.headers = headers
        self.body = body
    }
}
