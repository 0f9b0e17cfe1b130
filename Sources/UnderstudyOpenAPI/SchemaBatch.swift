import UnderstudyJSON
import UnderstudyJSONSchema

/// Validates `{"schema": pointer, "instance": value}` lines against a spec's schemas (plain JSON
/// Schema: no direction, no strictness), for the differential test against Python's `jsonschema`.
public struct SchemaBatch: Sendable {
    let spec: OpenAPISpec
    let validator: JSONSchemaValidator

    /// A batch over `spec`.
    public init(spec: OpenAPISpec) {
        self.spec = spec
        self.validator = spec.validator(direction: .none, strictExtraFields: false)
    }

    /// `true`, `false`, `unchecked` (a keyword or pattern the validator does not support decided
    /// nothing and was warned about), or `error: why` for a line that is not a request.
    public func validate(line: String) -> String {
        guard let request = JSONValue.parse(Array(line.utf8)), let pointer = request["schema"]?.stringValue,
            let instance = request["instance"]
        else { return "error: expected {\"schema\": pointer, \"instance\": value}" }
        guard let schema = JSONPointer.resolve(pointer, in: spec.root) else { return "error: \(pointer) names nothing" }
        let outcome = validator.validate(instance, against: schema, at: pointer)
        if outcome.isValid, outcome.warnings.contains(where: { $0.contains("not supported") }) { return "unchecked" }
        return outcome.isValid ? "true" : "false"
    }
}
