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
