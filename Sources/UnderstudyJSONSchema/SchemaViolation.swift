import UnderstudyJSON

/// One way an instance breaks a schema: where in the instance, which schema keyword, and what was
/// expected.
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// The failing value's place in the instance, as steps from its root.
    public var instancePath: [InstanceStep]
    /// The JSON pointer (URI fragment form, `#/…`) of the keyword that failed, in its document.
    public var schemaPointer: String
    /// The document the schema pointer is in (`""`: the one the validation started in).
    public var schemaDocument: String
    /// What was expected and what was found: "expected integer, found string".
    public var message: String

    /// A violation.
    public init(instancePath: [InstanceStep], schemaPointer: String, schemaDocument: String = "", message: String) {
        self.instancePath = instancePath
        self.schemaPointer = schemaPointer
        self.schemaDocument = schemaDocument
        self.message = message
    }

    /// The instance path in the stub errors' form: `$.items[0].id`.
    public var instancePathText: String {
        var text = "$"
        for step in instancePath {
            switch step {
            case .member(let key): text = JSONPath.member(text, key)
            case .element(let index): text = JSONPath.element(text, index)
            }
        }
        return text
    }

    /// `$.items[0].id: expected integer, found string (#/components/schemas/Pet/properties/id/type)`.
    public var description: String { "\(instancePathText): \(message) (\(schemaDocument)\(schemaPointer))" }
}

/// One step into an instance.
public enum InstanceStep: Sendable, Equatable {
    /// An object member.
    case member(String)
    /// An array element.
    case element(Int)
}
