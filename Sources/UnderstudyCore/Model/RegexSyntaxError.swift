/// A pattern the regex engine refused.
public struct RegexSyntaxError: Error, Sendable {
    public var pattern: String
    public var reason: String
}
