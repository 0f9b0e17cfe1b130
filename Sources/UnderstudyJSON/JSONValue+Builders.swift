extension JSONValue {
    package static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    package static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
}
