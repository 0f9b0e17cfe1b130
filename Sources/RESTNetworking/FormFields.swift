/// The fields of an `application/x-www-form-urlencoded` body, nested values included, in the
/// order written. Nested values get bracketed names, as Stripe encodes them: a dictionary
/// `"metadata": ["order": "7"]` is `metadata[order]=7`, a list `"expand": ["customer", "invoice"]`
/// is `expand[0]=customer&expand[1]=invoice`.
///
/// ```swift
/// let body = RequestBody.form(["amount": 2000, "currency": "eur", "metadata": ["order": "7"]])
/// // amount=2000&currency=eur&metadata[order]=7
/// ```
///
/// Brackets stay as written (Stripe's own SDKs send them so, and form decoders read both ways);
/// everything else in names and values is percent-encoded as `QueryItemEncoding` describes.
public struct FormFields: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The fields, in order.
    public var fields: [(name: String, value: FormValue)]

    /// These fields, in this order.
    public init(_ fields: [(name: String, value: FormValue)]) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, FormValue)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    public static func == (lhs: FormFields, rhs: FormFields) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// The fields flattened to `name=value` pairs, nested names bracketed, in order.
    public var flattened: [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for field in fields {
            field.value.flatten(into: &pairs, path: [field.name])
        }
        return pairs
    }

    /// The body's text: `amount=2000&metadata[order]=7`.
    public var encoded: String {
        flattened.map { pair in
            return Self.name(pair.name) + "=" + QueryItemEncoding.percentEncode(pair.value)
        }
        .joined(separator: "&")
    }

    /// A flattened name with its brackets kept and its parts percent-encoded.
    private static func name(_ name: String) -> String {
        var encoded = ""
        var part = ""
        for character in name {
            if character == "[" || character == "]" {
                encoded += QueryItemEncoding.percentEncode(part) + String(character)
                part = ""
            } else {
                part.append(character)
            }
        }
        return encoded + QueryItemEncoding.percentEncode(part)
    }
}

/// One value in a form body: text, a list (`name[0]`, `name[1]`) or nested fields (`name[key]`).
/// Written as literals: `2000`, `"eur"`, `true`, `["a", "b"]`, `["order": "7"]`.
public indirect enum FormValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A value as it is sent.
    case text(String)
    /// Values sent as `name[0]`, `name[1]`, … (Stripe's arrays).
    case list([FormValue])
    /// Values sent as `name[key]` (Stripe's hashes, `metadata[order]`).
    case fields(FormFields)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int) { self = .text(String(value)) }
    public init(floatLiteral value: Double) { self = .text(String(value)) }
    public init(booleanLiteral value: Bool) { self = .text(value ? "true" : "false") }
    public init(arrayLiteral elements: FormValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, FormValue)...) {
        self = .fields(FormFields(elements.map { (name: $0.0, value: $0.1) }))
    }

    fileprivate func flatten(into pairs: inout [(name: String, value: String)], path: [String]) {
        switch self {
        case let .text(text):
            pairs.append((name: path[0] + path.dropFirst().map { "[\($0)]" }.joined(), value: text))
        case let .list(values):
            for (index, value) in values.enumerated() {
                value.flatten(into: &pairs, path: path + [String(index)])
            }
        case let .fields(fields):
            for field in fields.fields {
                field.value.flatten(into: &pairs, path: path + [field.name])
            }
        }
    }
}
