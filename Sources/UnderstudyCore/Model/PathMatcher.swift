/// A condition on the request path, compared after percent-decoding.
public enum PathMatcher: Sendable {
    /// The decoded path equals this (already decoded) path.
    case exact(String)
    /// The whole decoded path matches the regular expression.
    case pattern(CompiledRegex)
}
