/// How a header or query value is matched.
public enum ValueMatcher: Codable, Sendable, Equatable, ExpressibleByStringLiteral {
    case equals(String)
    case contains(String)
    case matches(String)
    case present
    case absent

    public init(stringLiteral value: String) { self = .equals(value) }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .equals(text)
            return
        }
        let object = try decoder.singleValueContainer().decode([String: JSONValue].self)
        if let value = object["equals"]?.stringValue { self = .equals(value) }
        else if let value = object["contains"]?.stringValue { self = .contains(value) }
        else if let value = object["matches"]?.stringValue { self = .matches(value) }
        else if object["present"] != nil { self = .present }
        else { self = .absent }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .equals(value): try container.encode(["equals": value])
        case let .contains(value): try container.encode(["contains": value])
        case let .matches(value): try container.encode(["matches": value])
        case .present: try container.encode(["present": true])
        case .absent: try container.encode(["absent": true])
        }
    }
}

extension ValueMatcher {
    /// The matcher as the stub format writes it (a plain string for `equals`).
    public var json: JSONValue {
        switch self {
        case let .equals(value): .string(value)
        case let .contains(value): ["contains": .string(value)]
        case let .matches(value): ["matches": .string(value)]
        case .present: ["present": true]
        case .absent: ["absent": true]
        }
    }
}
