/// A parsed JSON value with the line and column of every value and key, so the stub validator can
/// point at the exact spot of a mistake.
package struct JSONNode: Sendable {
    package enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([Member])
    }

    /// An object member with the position of its key.
    package struct Member: Sendable {
        package var key: String
        package var keyPosition: SourcePosition
        package var value: JSONNode

        package init(key: String, keyPosition: SourcePosition, value: JSONNode) {
            self.key = key
            self.keyPosition = keyPosition
            self.value = value
        }
    }

    package var kind: Kind
    /// Where the value starts.
    package var position: SourcePosition

    package init(kind: Kind, position: SourcePosition) {
        self.kind = kind
        self.position = position
    }

    /// A value that was built, not parsed, as a node: every key and value at `position` (the one
    /// place it was written, such as the Swift line of a test kit builder).
    package init(_ value: JSONValue, at position: SourcePosition) {
        self.position = position
        switch value {
        case .null: kind = .null
        case .bool(let b): kind = .bool(b)
        case .number(let n): kind = .number(n)
        case .string(let s): kind = .string(s)
        case .array(let items): kind = .array(items.map { JSONNode($0, at: position) })
        case .object(let members):
            kind = .object(
                members.map { Member(key: $0.key, keyPosition: position, value: JSONNode($0.value, at: position)) })
        }
    }

    /// The value without positions.
    package var value: JSONValue {
        switch kind {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map(\.value))
        case .object(let members): return .object(members.map { JSONMember($0.key, $0.value.value) })
        }
    }

    package var kindName: String {
        switch kind {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    package var stringValue: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    package var members: [Member]? {
        if case .object(let m) = kind { return m }
        return nil
    }

    package var elements: [JSONNode]? {
        if case .array(let a) = kind { return a }
        return nil
    }

    package var numberText: String? {
        if case .number(let n) = kind { return n }
        return nil
    }
}

/// A 1-based line and column (columns count Unicode scalars).
package struct SourcePosition: Sendable, Equatable {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
