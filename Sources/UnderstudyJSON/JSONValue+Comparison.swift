extension JSONValue {
    /// Whether `self` (the actual body) equals `expected` under `options`: with
    /// `ignoreExtraElements`, objects may have extra members and arrays extra elements; with
    /// `ignoreArrayOrder`, each expected element is paired with a distinct actual element anywhere.
    public func equals(_ expected: JSONValue, _ options: JSONComparison) -> Bool {
        if options.placeholders, case .string(let text) = expected, let placeholder = JSONUnitPlaceholder(text) {
            return placeholder.accepts(self)
        }
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
            if options.placeholders, wanted.contains(where: { $0.value == JSONUnitPlaceholder.ignoreElementText }) {
                // A member whose value is `${json-unit.ignore-element}` may be there or not.
                if !options.ignoreExtraElements, !actual.allSatisfy({ a in wanted.contains { $0.key == a.key } }) {
                    return false
                }
                return wanted.allSatisfy { member in
                    member.value == JSONUnitPlaceholder.ignoreElementText
                        || actual.contains { $0.key == member.key && $0.value.equals(member.value, options) }
                }
            }
            if !options.ignoreExtraElements && actual.count != wanted.count { return false }
            return wanted.allSatisfy { member in
                actual.contains { $0.key == member.key && $0.value.equals(member.value, options) }
            }
        case (.array(let actual), .array(let wanted)):
            if options.ignoreExtraElements ? actual.count < wanted.count : actual.count != wanted.count { return false }
            if !options.ignoreArrayOrder {
                return zip(actual, wanted).allSatisfy { $0.equals($1, options) }
            }
            return Self.pairUp(wanted[...], actual, used: Array(repeating: false, count: actual.count), options)
        default:
            return semanticallyEquals(expected)
        }
    }

    /// Backtracking assignment of expected elements to distinct actual ones (arrays in stubs are small).
    private static func pairUp(
        _ wanted: ArraySlice<JSONValue>, _ actual: [JSONValue], used: [Bool], _ options: JSONComparison
    ) -> Bool {
        guard let first = wanted.first else { return true }
        for (i, candidate) in actual.enumerated() where !used[i] && candidate.equals(first, options) {
            var next = used
            next[i] = true
            if pairUp(wanted.dropFirst(), actual, used: next, options) { return true }
        }
        return false
    }

    /// The value as text for a sub-matcher: strings as they are, everything else as compact JSON.
    package var matchText: String {
        switch self {
        case .string(let s): return s
        case .null: return "null"
        default: return String(decoding: jsonBytes, as: UTF8.self)
        }
    }
}

/// Options for comparing two JSON documents.
public struct JSONComparison: Sendable, Equatable {
    /// Arrays may hold their elements in any order.
    public var ignoreArrayOrder: Bool
    /// The body may have object members and array elements the expected value lacks.
    public var ignoreExtraElements: Bool

    /// JsonUnit's placeholders in the expected value stand for what they name (see
    /// ``JSONUnitPlaceholder``), as WireMock's `equalToJson` reads them.
    public var placeholders: Bool

    /// A comparison with these allowances; by default exact JSON equality.
    public init(ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false, placeholders: Bool = false) {
        self.ignoreArrayOrder = ignoreArrayOrder
        self.ignoreExtraElements = ignoreExtraElements
        self.placeholders = placeholders
    }
}

/// A JsonUnit placeholder, a string in an expected JSON value: `${json-unit.any-string}`,
/// `${json-unit.any-number}` and `${json-unit.any-boolean}` accept any value of that type,
/// `${json-unit.ignore}` any value (the member must be there), `${json-unit.ignore-element}` any
/// value or none (checked against the 2.35.1 jar). Others (`regex`, `matches:`) are not supported.
public enum JSONUnitPlaceholder: Sendable {
    /// `${json-unit.any-string}`: any string.
    case anyString
    /// `${json-unit.any-number}`: any number.
    case anyNumber
    /// `${json-unit.any-boolean}`: `true` or `false`.
    case anyBoolean
    /// `${json-unit.ignore}`: any value, but the member must be there.
    case ignore
    /// `${json-unit.ignore-element}`: any value, or none.
    case ignoreElement

    /// The placeholder `text` is, or nil.
    public init?(_ text: String) {
        switch text {
        case "${json-unit.any-string}": self = .anyString
        case "${json-unit.any-number}": self = .anyNumber
        case "${json-unit.any-boolean}": self = .anyBoolean
        case "${json-unit.ignore}": self = .ignore
        case "${json-unit.ignore-element}": self = .ignoreElement
        default: return nil
        }
    }

    static let ignoreElementText: JSONValue = .string("${json-unit.ignore-element}")

    /// The first string in `value` that starts like a placeholder but is none of the supported ones.
    public static func firstUnsupported(in value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text.hasPrefix("${json-unit.") && JSONUnitPlaceholder(text) == nil ? text : nil
        case .array(let elements): return elements.lazy.compactMap(firstUnsupported(in:)).first
        case .object(let members): return members.lazy.compactMap { firstUnsupported(in: $0.value) }.first
        default: return nil
        }
    }

    /// Whether any string in `value` is a supported placeholder.
    public static func occurs(in value: JSONValue) -> Bool {
        switch value {
        case .string(let text): return JSONUnitPlaceholder(text) != nil
        case .array(let elements): return elements.contains(where: occurs(in:))
        case .object(let members): return members.contains { occurs(in: $0.value) }
        default: return false
        }
    }

    func accepts(_ actual: JSONValue) -> Bool {
        switch (self, actual) {
        case (.anyString, .string), (.anyNumber, .number), (.anyBoolean, .bool), (.ignore, _), (.ignoreElement, _):
            return true
        default: return false
        }
    }
}
