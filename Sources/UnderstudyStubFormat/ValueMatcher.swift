/// How a header, query, cookie or JSON-path value is matched (the stub format's matcher object).
public indirect enum ValueMatcher: Codable, Sendable, Equatable, ExpressibleByStringLiteral {
    /// Exactly this text (a plain string in the stub format).
    case equals(String)
    /// This text, ignoring case: `{"equalsIgnoringCase": s}`.
    case equalsIgnoringCase(String)
    /// Contains this text.
    case contains(String)
    /// Does not contain this text, or is not there at all: `{"doesNotContain": s}`.
    case doesNotContain(String)
    /// The regular expression matches the whole value.
    case matches(String)
    /// The regular expression does not match the whole value, or there is none: `{"doesNotMatch": regex}`.
    case doesNotMatch(String)
    /// Present, any value.
    case present
    /// Not present.
    case absent
    /// Every matcher matches: `{"allOf": [...]}` (at least one).
    case allOf([ValueMatcher])
    /// Some matcher matches: `{"anyOf": [...]}` (at least one).
    case anyOf([ValueMatcher])
    /// The matcher does not match: `{"not": matcher}`.
    case not(ValueMatcher)

    public init(stringLiteral value: String) { self = .equals(value) }

    /// The matcher a stub-format matcher (a string or a one-member object) describes; an object
    /// this kit does not know reads as `absent`, as before the newer matchers existed.
    public init(json: JSONValue) {
        if let text = json.stringValue {
            self = .equals(text)
            return
        }
        let list = { (key: String) in json[key]?.arrayValue?.map(ValueMatcher.init(json:)) }
        if let value = json["equals"]?.stringValue {
            self = .equals(value)
        } else if let value = json["equalsIgnoringCase"]?.stringValue {
            self = .equalsIgnoringCase(value)
        } else if let value = json["contains"]?.stringValue {
            self = .contains(value)
        } else if let value = json["doesNotContain"]?.stringValue {
            self = .doesNotContain(value)
        } else if let value = json["matches"]?.stringValue {
            self = .matches(value)
        } else if let value = json["doesNotMatch"]?.stringValue {
            self = .doesNotMatch(value)
        } else if json["present"] != nil {
            self = .present
        } else if let matchers = list("allOf") {
            self = .allOf(matchers)
        } else if let matchers = list("anyOf") {
            self = .anyOf(matchers)
        } else if let inner = json["not"] {
            self = .not(ValueMatcher(json: inner))
        } else {
            self = .absent
        }
    }

    public init(from decoder: any Decoder) throws {
        self.init(json: try decoder.singleValueContainer().decode(JSONValue.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        // Codable output spells `equals` out, so a decoder that expects an object always finds one.
        if case let .equals(value) = self {
            try container.encode(["equals": value])
        } else {
            try container.encode(json)
        }
    }
}

extension ValueMatcher {
    /// The matcher as the stub format writes it (a plain string for `equals`).
    public var json: JSONValue {
        switch self {
        case let .equals(value): .string(value)
        case let .equalsIgnoringCase(value): ["equalsIgnoringCase": .string(value)]
        case let .contains(value): ["contains": .string(value)]
        case let .doesNotContain(value): ["doesNotContain": .string(value)]
        case let .matches(value): ["matches": .string(value)]
        case let .doesNotMatch(value): ["doesNotMatch": .string(value)]
        case .present: ["present": true]
        case .absent: ["absent": true]
        case let .allOf(matchers): ["allOf": .array(matchers.map(\.json))]
        case let .anyOf(matchers): ["anyOf": .array(matchers.map(\.json))]
        case let .not(matcher): ["not": matcher.json]
        }
    }
}
