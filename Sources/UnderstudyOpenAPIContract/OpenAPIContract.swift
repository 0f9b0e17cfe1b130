#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyJSON
import UnderstudyJSONSchema

/// What a loaded OpenAPI 3.0/3.1 document promises, in plain JSON values: its documents (the spec
/// and the files its `$ref`s name), its operations and its `servers` base paths. `check --openapi`
/// builds one from a spec OpenAPIKit has accepted (``UnderstudyOpenAPI``); the daemon checks
/// requests and answers against it at serve time (``OpenAPIServeChecker``) with no OpenAPIKit.
public struct OpenAPIContract: Sendable {
    /// The spec file as given.
    public let file: String
    /// `3.0.x` or `3.1.x`.
    public let version: String
    /// The schema language of its schemas.
    public let dialect: SchemaDialect
    /// The spec and the files its `$ref`s name.
    public let documents: OpenAPIDocuments
    /// Every operation, in document order.
    public let operations: [OpenAPIOperation]
    /// Path prefixes from `servers` (`/api/1.0`), longest first; `""` always among them.
    public let basePaths: [String]

    /// A contract over documents whose `$ref`s all resolve.
    public init(version: String, dialect: SchemaDialect, documents: OpenAPIDocuments) {
        self.file = documents.rootFile
        self.version = version
        self.dialect = dialect
        self.documents = documents
        self.operations = OpenAPIOperation.all(in: documents)
        self.basePaths = Self.basePaths(documents.root)
    }

    /// The path parts of `servers[].url` (variables replaced by their defaults), longest first.
    static func basePaths(_ root: JSONValue) -> [String] {
        var paths: Set<String> = [""]
        if case .array(let servers)? = root["servers"] {
            for server in servers {
                guard var url = server["url"]?.stringValue else { continue }
                if case .object(let variables)? = server["variables"] {
                    for variable in variables {
                        if let value = variable.value["default"]?.stringValue {
                            url = url.replacing("{\(variable.key)}", with: value)
                        }
                    }
                }
                if let scheme = url.firstRange(of: "://") {
                    let rest = url[scheme.upperBound...]
                    url = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
                }
                while url.hasSuffix("/") { url.removeLast() }
                paths.insert(url)
            }
        }
        return paths.sorted { $0.count > $1.count }
    }

    /// A validator for this spec's schemas.
    public func validator(direction: SchemaDirection, strictExtraFields: Bool) -> JSONSchemaValidator {
        JSONSchemaValidator(
            dialect: dialect, options: SchemaOptions(direction: direction, strictExtraFields: strictExtraFields),
            resolver: documents)
    }

    /// The operations a concrete request path (percent-decoded) reaches, for every method, and the
    /// path after the `servers` base path that led there: templates without parameters first
    /// (OpenAPI's matching rule).
    public func operations(forPath path: String) -> (rest: String, operations: [OpenAPIOperation]) {
        for base in basePaths where base.isEmpty || path.hasPrefix(base) {
            let rest = String(path.dropFirst(base.count))
            let literal = operations.filter { $0.path == rest }
            let found = literal.isEmpty ? operations.filter { $0.matches(path: rest) } : literal
            if !found.isEmpty { return (rest, found) }
        }
        return (path, [])
    }

    /// The response an operation declares for `status`: the exact code, else its `2XX`-style range,
    /// else `default`; its key and its value.
    public static func declaredResponse(for status: Int, in responses: [JSONMember]) -> JSONMember? {
        let code = String(status)
        let range = "\(status / 100)XX"
        return responses.first { $0.key == code } ?? responses.first { $0.key.uppercased() == range }
            ?? responses.first { $0.key == "default" }
    }

    /// `application/json; charset=utf-8` → `application/json`.
    public static func mediaType(_ text: String) -> String {
        trimmed(text.split(separator: ";").first ?? text[...]).lowercased()
    }

    /// `text` without leading and trailing spaces and tabs (what `trimmingCharacters(in: .whitespaces)` does
    /// for header text; that is full Foundation's, which the daemon does not link).
    static func trimmed(_ text: Substring) -> String {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        return String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }

    /// Whether a media type carries JSON (`application/json`, `application/problem+json`).
    public static func isJSON(_ type: String) -> Bool {
        type == "application/json" || type.hasSuffix("+json") || type.hasSuffix("/json")
    }

    /// Which of the declared media types (already reduced by ``mediaType(_:)``) a sent
    /// `Content-Type` picks: the exact type, else `type/*`, else `*/*`; with none sent, the only
    /// one declared.
    public static func chosenMediaType(sent: String?, declared: [String]) -> Int? {
        guard let sent else { return declared.count == 1 ? 0 : nil }
        let slash = sent.firstIndex(of: "/").map { String(sent[..<$0]) } ?? sent
        return declared.firstIndex(of: sent) ?? declared.firstIndex(of: slash + "/*") ?? declared.firstIndex(of: "*/*")
    }
}

/// The contract as one JSON document, so a tool that reads specs (`understudy-openapi contract`,
/// which links OpenAPIKit and Yams) can hand it to the daemon (which links neither):
/// `{"understudyOpenAPIContract":1,"file","version","documents":{"": root, "schemas/pet.yaml": …}}`.
extension OpenAPIContract {
    /// The contract's JSON form.
    public var json: JSONValue {
        let documents = self.documents.values.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) }
        return .object([
            JSONMember("understudyOpenAPIContract", .number("1")),
            JSONMember("file", .string(file)),
            JSONMember("version", .string(version)),
            JSONMember("documents", .object(documents)),
        ])
    }

    /// A contract from its JSON form (``json``); nil when `json` is not one.
    public init?(json: JSONValue) {
        guard json["understudyOpenAPIContract"] == .number("1"), let file = json["file"]?.stringValue,
            let version = json["version"]?.stringValue, case .object(let members)? = json["documents"],
            let root = members.first(where: { $0.key.isEmpty })
        else { return nil }
        var documents = OpenAPIDocuments(rootFile: file, root: root.value)
        for member in members where !member.key.isEmpty { documents.values[member.key] = member.value }
        self.init(version: version, dialect: version.hasPrefix("3.0") ? .openAPI30 : .draft202012, documents: documents)
    }
}
