/// Which requests a stub answers. Every condition given must hold; an empty pattern matches
/// every request.
public struct RequestPattern: Sendable {
    /// The method, upper-cased; `nil` matches any method.
    public var method: String?
    /// The path condition; `nil` matches any path.
    public var path: PathMatcher?
    /// Conditions on query parameters (names compared exactly, values percent-decoded).
    public var query: [NamedMatcher]
    /// Conditions on headers (names compared case-insensitively).
    public var headers: [NamedMatcher]
    /// Conditions on cookies (from the `Cookie` header; names compared exactly).
    public var cookies: [NamedMatcher]
    /// A condition on the body.
    public var body: BodyMatcher?

    /// Creates a pattern; the default matches everything.
    public init(
        method: String? = nil, path: PathMatcher? = nil, query: [NamedMatcher] = [],
        headers: [NamedMatcher] = [], cookies: [NamedMatcher] = [], body: BodyMatcher? = nil
    ) {
        self.method = method?.uppercased()
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.body = body
    }
}

/// A condition on the request path (or, for the `target` cases, path and query as sent).
public enum PathMatcher: Sendable {
    /// The decoded path equals this (already decoded) path.
    case exact(String)
    /// The whole decoded path matches the regular expression.
    case pattern(CompiledRegex)
    /// The request target as sent (path, then `?` and the query when there is one) equals this.
    case exactTarget(String)
    /// The whole request target as sent matches the regular expression.
    case targetPattern(CompiledRegex)
}

/// A matcher bound to a query parameter or header name.
public struct NamedMatcher: Sendable {
    /// The name (headers compare it case-insensitively; query names exactly).
    public var name: String
    /// What the parameter's or header's value must satisfy.
    public var matcher: ValueMatcher
    /// How a header's value is put before `matcher` sees it (``HeaderValueForm``; as sent for
    /// query parameters and cookies).
    public var valueForm: HeaderValueForm

    /// Binds `matcher` to the parameter or header called `name`.
    public init(name: String, matcher: ValueMatcher, valueForm: HeaderValueForm = .asSent) {
        self.name = name
        self.matcher = matcher
        self.valueForm = valueForm
    }
}
