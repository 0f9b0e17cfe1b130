/// A parsed JSON value with the line and column of every value and key, so the stub validator can
/// point at the exact spot of a mistake.
struct JSONNode: Sendable {
    enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([Member])
    }

    /// An object member with the position of its key.
    struct Member: Sendable {
        var key: String
        var keyPosition: SourcePosition
        var value: JSONNode
    }

    var kind: Kind
    /// Where the value starts.
    var position: SourcePosition

    /// The value without positions.
    var value: JSONValue {
        switch kind {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map(\.value))
        case .object(let members): return .object(members.map { JSONMember($0.key, $0.value.value) })
        }
    }

    var kindName: String {
        switch kind {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    var stringValue: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    var members: [Member]? {
        if case .object(let m) = kind { return m }
        return nil
    }

    var elements: [JSONNode]? {
        if case .array(let a) = kind { return a }
        return nil
    }

    var numberText: String? {
        if case .number(let n) = kind { return n }
        return nil
    }
}

/// A 1-based line and column (columns count Unicode scalars).
struct SourcePosition: Sendable, Equatable {
    var line: Int
    var column: Int
}
