/// The package's one JSON value (the engine's stub model and the test kit's typed stubs and
/// admin answers alike). It keeps what Foundation's parser loses: object key order (bodies are written
/// back in the order the stub author wrote them) and a number's text as written (`1.5` stays
/// `1.5`, `1e3` stays `1e3`).
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON text.
    case number(String)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object, members in written order.
    case object([JSONMember])

    /// The number's value, when this is a number.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The first member named `key`, when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The kind, as error messages name it.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONValue

    /// A member with this name and value.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue {
    package static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    package static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
}
