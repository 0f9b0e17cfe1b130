/// Which schema language a document's schemas are written in.
public enum SchemaDialect: Sendable {
    /// JSON Schema draft 2020-12, as OpenAPI 3.1 uses it.
    case draft202012
    /// OpenAPI 3.0's schema object: `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`, a single
    /// `type`, and `$ref` that replaces its siblings.
    case openAPI30
}

/// Which way a value travels, for `readOnly` and `writeOnly`: a response may not carry a `writeOnly`
/// property (nor must it carry one `required`), a request may not carry a `readOnly` one.
public enum SchemaDirection: Sendable {
    /// Neither keyword applies (plain JSON Schema).
    case none
    /// A value the server sends.
    case response
    /// A value the client sends.
    case request
}

/// How strictly to validate beyond what the schema says.
public struct SchemaOptions: Sendable {
    /// Which way the value travels (`readOnly`/`writeOnly`).
    public var direction: SchemaDirection
    /// An object schema with `properties` but no `additionalProperties` refuses other members
    /// (`--strict-extra-fields`); JSON Schema's default allows them.
    public var strictExtraFields: Bool

    /// Options; the defaults are plain JSON Schema.
    public init(direction: SchemaDirection = .none, strictExtraFields: Bool = false) {
        self.direction = direction
        self.strictExtraFields = strictExtraFields
    }
}
