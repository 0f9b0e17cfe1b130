/// Every JSON literal, string interpolation included (`"Station \(n)"`). Dictionary literals keep
/// their written order; a repeated key keeps both members, as JSON text would.
extension JSONValue: ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(stringInterpolation: DefaultStringInterpolation) {
        self = .string(String(stringInterpolation: stringInterpolation))
    }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(floatLiteral value: Double) { self = JSONValue(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { JSONMember($0.0, $0.1) })
    }
    public init(nilLiteral: ()) { self = .null }

    /// A number; integral values are written without a fraction (`2.0` → `2`).
    public init(_ value: Double) {
        if value.rounded() == value, abs(value) < 1e15 {
            self = .number(String(Int64(value)))
        } else {
            self = .number(String(value))
        }
    }

    /// A number.
    public init(_ value: Int) { self = .number(String(value)) }

    /// An object with these members, in this order.
    public init(_ members: KeyValuePairs<String, JSONValue>) {
        self = .object(members.map { JSONMember($0.key, $0.value) })
    }

    /// The boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, when this is an integral number.
    public var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text) ?? Double(text).flatMap { $0.rounded() == $0 ? Int(exactly: $0) : nil }
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members in order, when this is an object.
    public var members: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A copy with member `key` set to `value`: replaced in place when present, appended otherwise.
    /// On a non-object, an object with just that member.
    public func setting(_ key: String, to value: JSONValue) -> JSONValue {
        var members = self.members ?? []
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key, value))
        }
        return .object(members)
    }
}
