import Foundation
import UnderstudyJSON
import UnderstudyJSONSchema
@_exported import UnderstudyOpenAPIContract

/// An OpenAPI 3.0 or 3.1 document, loaded with every file its `$ref`s name, checked by OpenAPIKit,
/// and kept raw (with positions) so every finding can name a pointer into it.
public struct OpenAPISpec: Sendable {
    /// What the spec promises, as plain values (what `serve --openapi` checks against).
    public let contract: OpenAPIContract
    /// The spec and the files its `$ref`s name, positions kept.
    let documents: SpecDocuments

    /// The spec file as given.
    public var file: String { contract.file }
    /// `3.0.x` or `3.1.x`.
    public var version: String { contract.version }
    /// The schema language of its schemas.
    public var dialect: SchemaDialect { contract.dialect }
    /// Every operation, in document order.
    public var operations: [OpenAPIOperation] { contract.operations }
    /// Path prefixes from `servers` (`/api/1.0`), longest first; `""` always among them.
    var basePaths: [String] { contract.basePaths }

    /// The root document.
    public var root: JSONValue { documents.root }

    /// Loads `file` and every file its `$ref`s reach. Throws every problem found: a file that does
    /// not parse, a document that is not OpenAPI 3.0/3.1 (as OpenAPIKit decodes it), a `$ref` that
    /// names nothing; each with its file, line and column.
    public static func load(_ file: String) throws(OpenAPILoadFailure) -> OpenAPISpec {
        guard let bytes = SpecDocuments.read(file) else {
            throw OpenAPILoadFailure(findings: [
                OpenAPIFinding(file: file, line: 1, column: 1, message: "cannot read the spec file")
            ])
        }
        let rootNode: JSONNode
        do {
            rootNode = try SpecDocumentParser.parse(bytes, file: file)
        } catch {
            throw OpenAPILoadFailure(findings: [error])
        }
        let root = rootNode.value
        let start = SourcePosition(line: 1, column: 1)
        guard case .object = root else {
            throw OpenAPILoadFailure(findings: [
                OpenAPIFinding(
                    file: file, position: start,
                    message: "not an OpenAPI document: expected an object with an `openapi` key, found \(root.kindName)"
                )
            ])
        }
        guard case .string(let version)? = root["openapi"] else {
            let message =
                root["swagger"] != nil
                ? "Swagger 2.0 is not supported: convert it to OpenAPI 3 first"
                : "not an OpenAPI document: no `openapi` version key"
            throw OpenAPILoadFailure(findings: [OpenAPIFinding(file: file, position: start, message: message)])
        }
        let dialect: SchemaDialect
        if version.hasPrefix("3.0") {
            dialect = .openAPI30
        } else if version.hasPrefix("3.1") {
            dialect = .draft202012
        } else {
            let position = SpecDocuments.position(of: ["openapi"], in: rootNode) ?? start
            throw OpenAPILoadFailure(findings: [
                OpenAPIFinding(
                    file: file, position: position,
                    message: "unsupported OpenAPI version `\(version)`: expected 3.0.x or 3.1.x")
            ])
        }
        // Keys first (every one, located at the key), then OpenAPIKit decodes the whole document:
        // whatever it refuses is not OpenAPI.
        let strayKeys = OpenAPIFieldCheck.findings(in: rootNode, file: file, version: version)
        if !strayKeys.isEmpty { throw OpenAPILoadFailure(findings: strayKeys) }
        let json = Array(root.jsonText.utf8)
        if let problem = dialect == .openAPI30
            ? OpenAPIKitGate30.problem(json: json) : OpenAPIKitGate31.problem(json: json)
        {
            let position = SpecDocuments.closestPosition(of: problem.path, in: rootNode)
            let pointer = "#" + problem.path.map { "/" + JSONPointer.escape($0) }.joined()
            throw OpenAPILoadFailure(findings: [
                OpenAPIFinding(
                    file: file, line: position.line, column: position.column,
                    specPointer: file + pointer, message: "not a valid OpenAPI \(version) document: \(problem.message)")
            ])
        }
        var documents = SpecDocuments(rootFile: file, rootNode: rootNode)
        let broken = documents.loadReferences()
        if !broken.isEmpty { throw OpenAPILoadFailure(findings: broken) }
        return OpenAPISpec(
            contract: OpenAPIContract(version: version, dialect: dialect, documents: documents.store),
            documents: documents)
    }

    /// A validator for this spec's schemas.
    public func validator(direction: SchemaDirection, strictExtraFields: Bool) -> JSONSchemaValidator {
        contract.validator(direction: direction, strictExtraFields: strictExtraFields)
    }

    /// Follows `$ref`s from `value` (at `pointer` in `document`) to the object they name.
    func dereference(_ value: JSONValue, document: String, pointer: String) -> ResolvedSchema {
        documents.store.dereference(value, document: document, pointer: pointer)
    }

    /// `file#pointer` for findings.
    func label(_ document: String, _ pointer: String) -> String {
        documents.store.label(document, pointer)
    }
}

/// Why a spec could not be loaded: every problem, located.
public struct OpenAPILoadFailure: Error, Sendable {
    /// The problems, in the order found.
    public var findings: [OpenAPIFinding]
}
