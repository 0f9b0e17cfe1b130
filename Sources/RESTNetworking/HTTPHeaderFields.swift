/// A response's header fields as an error keeps them: looked up by name without regard to case,
/// as HTTP field names are (RFC 9110 §5.1).
public struct HTTPHeaderFields: Sendable, Hashable {
    /// Values by lowercased field name.
    private var values: [String: String]

    /// Fields from `fields` (names in any case; of two differing only in case, one is kept).
    public init(_ fields: [String: String] = [:]) {
        values = [:]
        for (name, value) in fields { values[name.lowercased()] = value }
    }

    /// The header fields of `response`.
    public init(_ response: HTTPURLResponse) {
        values = [:]
        for case let (name as String, value as String) in response.allHeaderFields {
            values[name.lowercased()] = value
        }
    }

    /// The value of the field `name` (any case), or `nil` when absent.
    public subscript(_ name: String) -> String? {
        values[name.lowercased()]
    }

    /// Every field, by lowercased name.
    public var all: [String: String] { values }

    /// Whether there are no fields at all.
    public var isEmpty: Bool { values.isEmpty }
}
