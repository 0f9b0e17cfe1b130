/// A condition on a query parameter or header value. In a stub file it is a plain string (exact
/// equality) or an object with exactly one of `equals`, `contains`, `matches`, `present`, `absent`.
public enum ValueMatcher: Sendable {
    /// The value equals the string exactly.
    case equals(String)
    /// The value contains the string.
    case contains(String)
    /// The whole value matches the regular expression.
    case matches(CompiledRegex)
    /// The name is present, with any value.
    case present
    /// The name is not present at all.
    case absent

    /// Whether the values received for one name (empty when absent) satisfy the matcher; with
    /// repeated names, any one value may satisfy it.
    public func accepts(_ values: [String]) -> Bool {
        switch self {
        case .present: return !values.isEmpty
        case .absent: return values.isEmpty
        case .equals(let wanted): return values.contains(wanted)
        case .contains(let part): return values.contains { $0.containsBytes(part) }
        case .matches(let regex): return values.contains { regex.matchesWhole($0) }
        }
    }

    /// The matcher as a stub file writes it.
    public var jsonValue: JSONValue {
        switch self {
        case .equals(let s): return .string(s)
        case .contains(let s): return .object([JSONMember("contains", .string(s))])
        case .matches(let r): return .object([JSONMember("matches", .string(r.pattern))])
        case .present: return .object([JSONMember("present", .bool(true))])
        case .absent: return .object([JSONMember("absent", .bool(true))])
        }
    }
}
