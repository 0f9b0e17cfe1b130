/// Typed readers for scalar values; each reports a mismatch at the value's position.
extension StubDecoder {
    package mutating func string(_ node: JSONNode, _ path: JSONPath) -> String? {
        guard let text = node.stringValue else {
            typeMismatch(node, path, expected: "a string")
            return nil
        }
        return text
    }

    package mutating func nonEmptyString(_ node: JSONNode, _ path: JSONPath, what: String) -> String? {
        guard let text = node.stringValue else {
            typeMismatch(node, path, expected: "\(what) (a string)")
            return nil
        }
        guard !text.isEmpty else {
            fail(node.position, path, "expected \(what), found an empty string")
            return nil
        }
        return text
    }

    package mutating func number(_ node: JSONNode, _ path: JSONPath) -> Double? {
        guard let text = node.numberText, let value = Double(text) else {
            typeMismatch(node, path, expected: "a number")
            return nil
        }
        return value
    }

    package mutating func integer(_ node: JSONNode, _ path: JSONPath, minimum: Int, what: String) -> Int? {
        guard let text = node.numberText else {
            typeMismatch(node, path, expected: "\(what) (an integer ≥ \(minimum))")
            return nil
        }
        guard let value = Int(text) else {
            fail(node.position, path, "expected \(what) (an integer ≥ \(minimum)), found \(text)")
            return nil
        }
        guard value >= minimum else {
            fail(node.position, path, "expected \(what) (an integer ≥ \(minimum)), found \(value)")
            return nil
        }
        return value
    }

    mutating func enumValue<Value: RawRepresentable & CaseIterable>(
        _ node: JSONNode, _ path: JSONPath, _ type: Value.Type
    ) -> Value?
    where Value.RawValue == String {
        if let text = node.stringValue, let value = Value(rawValue: text) { return value }
        // Only errors need the list of names.
        let names = Value.allCases.map(\.rawValue)
        let list = names.map { "`\($0)`" }.joined(separator: ", ")
        guard let text = node.stringValue else {
            typeMismatch(node, path, expected: "one of \(list)")
            return nil
        }
        if let suggestion = EditDistance.closest(to: text, among: names) {
            fail(
                node.position, path, "unknown value `\(text)`; did you mean `\(suggestion)`? (expected one of \(list))",
                suggestion: suggestion)
        } else {
            fail(node.position, path, "unknown value `\(text)`; expected one of \(list)")
        }
        return nil
    }

    package mutating func regex(_ node: JSONNode, _ path: JSONPath) -> CompiledRegex? {
        guard let pattern = string(node, path) else { return nil }
        do {
            return try CompiledRegex(pattern)
        } catch {
            fail(node.position, path, "invalid regular expression `\(pattern)`: \(error.reason)")
            return nil
        }
    }
}

/// "an object", "a string": for messages.
func article(_ noun: String) -> String {
    guard let first = noun.first else { return noun }
    return ("aeiou".contains(first) ? "an " : "a ") + noun
}
