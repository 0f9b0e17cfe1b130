/// A condition on the request body.
public enum BodyMatcher: Sendable {
    /// The body, as UTF-8 text, equals the string.
    case equals(String)
    /// The body text contains the string.
    case contains(String)
    /// The whole body text matches the regular expression.
    case matches(CompiledRegex)
    /// The body is JSON equal to the value (key order ignored, numbers by value).
    case json(JSONValue)
    /// The body is JSON containing at least the keys and elements given.
    case jsonSubset(JSONValue)
}
