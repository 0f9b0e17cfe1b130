import UnderstudyJSON

/// One thing `check --openapi` reports: an error (or warning) at a place in a file, with the spec
/// pointer that says what was expected there.
public struct OpenAPIFinding: Error, Sendable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable {
        /// The stub (or spec) is wrong; the check fails.
        case error
        /// Worth knowing; the check still passes.
        case warning
    }

    /// The file the position is in: a stub file, a body file, or the spec.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int
    /// Where in the stub document (`stubs[0].responses[1].json`), or `""`.
    public var stubPath: String
    /// Where in the response body (`$.items[0].id`), or `""`.
    public var bodyPath: String
    /// The spec file and pointer that say what was expected (`petstore.yaml#/components/schemas/Pet/…`),
    /// or `""`.
    public var specPointer: String
    /// What is wrong.
    public var message: String
    /// Error or warning.
    public var severity: Severity
    /// The stub the finding is about (`nil` for findings about the spec or a whole file).
    public var stubID: String?

    /// A finding.
    public init(
        file: String, line: Int, column: Int, stubPath: String = "", bodyPath: String = "", specPointer: String = "",
        message: String, severity: Severity = .error
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.stubPath = stubPath
        self.bodyPath = bodyPath
        self.specPointer = specPointer
        self.message = message
        self.severity = severity
    }

    init(file: String, position: SourcePosition, message: String) {
        self.init(file: file, line: position.line, column: position.column, message: message)
    }

    /// `file:line:column: error: $.items[0].id: expected integer, found string (at stubs[0].responses[0].json; spec
    /// petstore.yaml#/components/schemas/Pet/properties/id/type)`.
    public var description: String {
        var text = "\(file):\(line):\(column): \(severity.rawValue): "
        if !bodyPath.isEmpty { text += "\(bodyPath): " }
        text += message
        var notes: [String] = []
        if !stubPath.isEmpty { notes.append("at \(stubPath)") }
        if !specPointer.isEmpty { notes.append("spec \(specPointer)") }
        if !notes.isEmpty { text += " (\(notes.joined(separator: "; ")))" }
        return text
    }
}
