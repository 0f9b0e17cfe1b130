extension JSONValue {
    /// JSON equality as a reader means it: object key order ignored, numbers compared by value
    /// (`1`, `1.0` and `1e0` are equal).
    public func semanticallyEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b || Double(a) == Double(b)
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.semanticallyEquals($1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in
                b.contains { $0.key == member.key && $0.value.semanticallyEquals(member.value) }
            }
        default: return false
        }
    }

    /// Whether `self` (the actual value) contains everything in `expected`: every key given must be
    /// present with a containing value (extra keys allowed), every array element given must be
    /// contained by some element of the actual array (order ignored), and scalars must be equal.
    public func contains(subset expected: JSONValue) -> Bool {
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
            return wanted.allSatisfy { member in
                actual.contains { $0.key == member.key && $0.value.contains(subset: member.value) }
            }
        case (.array(let actual), .array(let wanted)):
            return wanted.allSatisfy { element in actual.contains { $0.contains(subset: element) } }
        default:
            return semanticallyEquals(expected)
        }
    }
}

/// Equality as JSON means it: object key order ignored, numbers compared by value (`1`, `1.0` and
/// `1e0` are equal), array order kept. (The written form is still kept for output; see
/// `jsonText`.)
extension JSONValue: Equatable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.semanticallyEquals(rhs)
    }
}
