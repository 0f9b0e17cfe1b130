extension JSONValue {
    /// Whether `self` (the actual body) equals `expected` under `options`: with
    /// `ignoreExtraElements`, objects may have extra members and arrays extra elements; with
    /// `ignoreArrayOrder`, each expected element is paired with a distinct actual element anywhere.
    public func equals(_ expected: JSONValue, _ options: JSONComparison) -> Bool {
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
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

    /// A comparison with these allowances; by default exact JSON equality.
    public init(ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false) {
        self.ignoreArrayOrder = ignoreArrayOrder
        self.ignoreExtraElements = ignoreExtraElements
    }
}
