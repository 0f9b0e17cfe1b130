/// A matcher bound to a query parameter or header name.
public struct NamedMatcher: Sendable {
    /// The name (headers compare it case-insensitively; query names exactly).
    public var name: String
    public var matcher: ValueMatcher

    public init(name: String, matcher: ValueMatcher) {
        self.name = name
        self.matcher = matcher
    }
}
