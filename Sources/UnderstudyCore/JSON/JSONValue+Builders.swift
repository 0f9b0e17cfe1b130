extension JSONValue {
    static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
}
