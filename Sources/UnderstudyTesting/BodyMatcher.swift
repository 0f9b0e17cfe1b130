/// How a stub (or `find`/`count`) matches a request body.
public enum BodyMatcher: Sendable, Equatable {
    /// The whole body is exactly this text.
    case equals(String)
    /// The body contains this text.
    case contains(String)
    /// The regular expression matches the whole body.
    case matches(String)
    /// The body is JSON equal to this (key order and number spelling ignored).
    case json(JSONValue)
    /// The body is JSON containing at least this (extra keys allowed).
    case jsonSubset(JSONValue)

    /// The matcher as the stub format writes it.
    public var json: JSONValue {
        switch self {
        case .equals(let text): ["equals": .string(text)]
        case .contains(let text): ["contains": .string(text)]
        case .matches(let pattern): ["matches": .string(pattern)]
        case .json(let value): ["json": value]
        case .jsonSubset(let value): ["jsonSubset": value]
        }
    }
}
