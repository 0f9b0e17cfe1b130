/// A condition on a query parameter, header or cookie value. In a stub file it is a plain string
/// (exact equality) or an object with exactly one of `equals`, `equalsIgnoringCase`, `contains`,
/// `doesNotContain`, `matches`, `doesNotMatch`, `present`, `absent`, `allOf`, `anyOf`, `not`.
/// Only `not` is `indirect`: the other recursive cases hold arrays, which are boxed already, so the
/// common cases stay inline (no allocation per matcher, and no boxed payload behind a tagged pointer,
/// which LeakSanitizer cannot follow and reported as a leak).
public enum ValueMatcher: Sendable {
    /// The value equals the string exactly.
    case equals(String)
    /// The value equals the string, ignoring case.
    case equalsIgnoringCase(String)
    /// The value contains the string.
    case contains(String)
    /// The value does not contain the string (a missing name also satisfies it).
    case doesNotContain(String)
    /// The whole value matches the regular expression.
    case matches(CompiledRegex)
    /// The whole value does not match the regular expression (a missing name also satisfies it).
    case doesNotMatch(CompiledRegex)
    /// The name is present, with any value.
    case present
    /// The name is not present at all.
    case absent
    /// One value satisfies every matcher.
    case allOf([ValueMatcher])
    /// One value satisfies at least one matcher.
    case anyOf([ValueMatcher])
    /// One value does not satisfy the matcher; a missing name satisfies it when it misses the
    /// matcher (`not` of `equals` accepts a request without the header).
    indirect case not(ValueMatcher)

    /// Whether the values received for one name (empty when absent) satisfy the matcher; with
    /// repeated names, any one value may satisfy it. A missing name is judged by
    /// ``acceptsMissing``: as in WireMock 3, the negative matchers (`absent`, `doesNotContain`,
    /// `doesNotMatch`, `not` of a matcher that needs a value) accept it and the others do not.
    public func accepts(_ values: [String]) -> Bool {
        switch self {
        case .present: return !values.isEmpty
        case .absent: return values.isEmpty
        case .equals(let wanted): return values.contains(wanted)
        case _ where values.isEmpty: return acceptsMissing
        case .anyOf(let any): return any.contains { $0.accepts(values) }
        default: return values.contains { accepts(value: $0) }
        }
    }

    /// Whether the matcher holds for a name that is not there at all: WireMock's rule, a matcher
    /// applied to no value. `absent`, `doesNotContain` and `doesNotMatch` hold, `present`,
    /// `equals`, `equalsIgnoringCase`, `contains` and `matches` do not; `not` inverts its
    /// matcher, `allOf` holds when all of its matchers do and `anyOf` when one does.
    public var acceptsMissing: Bool {
        switch self {
        case .absent, .doesNotContain, .doesNotMatch: return true
        case .present, .equals, .equalsIgnoringCase, .contains, .matches: return false
        case .allOf(let all): return all.allSatisfy(\.acceptsMissing)
        case .anyOf(let any): return any.contains(where: \.acceptsMissing)
        case .not(let inner): return !inner.acceptsMissing
        }
    }

    /// Whether one value satisfies the matcher (`present` holds for any value, `absent` for none).
    public func accepts(value: String) -> Bool {
        switch self {
        case .present: return true
        case .absent: return false
        case .equals(let wanted): return value == wanted
        case .equalsIgnoringCase(let wanted): return value.lowercased() == wanted.lowercased()
        case .contains(let part): return value.containsBytes(part)
        case .doesNotContain(let part): return !value.containsBytes(part)
        case .matches(let regex): return regex.matchesWhole(value)
        case .doesNotMatch(let regex): return !regex.matchesWhole(value)
        case .allOf(let all): return all.allSatisfy { $0.accepts(value: value) }
        case .anyOf(let any): return any.contains { $0.accepts(value: value) }
        case .not(let inner): return !inner.accepts(value: value)
        }
    }

    /// The matcher as a stub file writes it.
    public var jsonValue: JSONValue {
        func one(_ key: String, _ value: JSONValue) -> JSONValue { .object([JSONMember(key, value)]) }
        switch self {
        case .equals(let s): return .string(s)
        case .equalsIgnoringCase(let s): return one("equalsIgnoringCase", .string(s))
        case .contains(let s): return one("contains", .string(s))
        case .doesNotContain(let s): return one("doesNotContain", .string(s))
        case .matches(let r): return one("matches", .string(r.pattern))
        case .doesNotMatch(let r): return one("doesNotMatch", .string(r.pattern))
        case .present: return one("present", .bool(true))
        case .absent: return one("absent", .bool(true))
        case .allOf(let all): return one("allOf", .array(all.map(\.jsonValue)))
        case .anyOf(let any): return one("anyOf", .array(any.map(\.jsonValue)))
        case .not(let inner): return one("not", inner.jsonValue)
        }
    }

    /// A short phrase for near-miss reports ("does not contain \"x\"").
    package var phrase: String {
        switch self {
        case .present: return "present"
        case .absent: return "absent"
        case .equals(let s): return "= \"\(s)\""
        case .equalsIgnoringCase(let s): return "= \"\(s)\" (ignoring case)"
        case .contains(let s): return "contains \"\(s)\""
        case .doesNotContain(let s): return "does not contain \"\(s)\""
        case .matches(let r): return "matches \(r.pattern)"
        case .doesNotMatch(let r): return "does not match \(r.pattern)"
        case .allOf(let all): return all.map(\.phrase).joined(separator: " and ")
        case .anyOf(let any): return "(" + any.map(\.phrase).joined(separator: " or ") + ")"
        case .not(let inner): return "not (\(inner.phrase))"
        }
    }
}
