/// A pattern the regex engine refused: a syntax error, a construct that needs backtracking, or
/// a pattern over ``RegexLimits``.
public struct RegexSyntaxError: Error, Sendable {
    /// The pattern as written.
    public var pattern: String
    /// What is wrong, with the offset (in Unicode scalars) where it applies.
    public var reason: String
}
