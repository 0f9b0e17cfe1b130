/// A matcher bound to a query parameter or header name.
public struct NamedMatcher: Sendable {
    /// The name (headers compare it case-insensitively; query names exactly).
    public var name: String
    /// What the parameter's or header's value must satisfy.
    public var matcher: ValueMatcher

    /// Binds `matcher` to the parameter or header called `name`.
    public init(name: String, matcher: ValueMatcher) {
        self.name = name
        self.matcher = matcher
    }
}
