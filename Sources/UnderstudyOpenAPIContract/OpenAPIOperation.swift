import UnderstudyJSON
import UnderstudyJSONSchema
import UnderstudyRegex

/// One operation of the spec: a method on a path template, with its parameters and responses.
public struct OpenAPIOperation: Sendable {
    /// Upper-case method (`GET`).
    public let method: String
    /// The path template as written (`/pets/{petId}`).
    public let path: String
    /// `#/paths/~1pets~1{petId}/get`.
    public let pointer: String
    /// The operation object.
    public let operation: JSONValue
    /// Path-item and operation parameters, `$ref`s followed, the operation's winning; each with
    /// its document and pointer (after the `$ref`), for findings.
    public let parameters: [JSONValue]
    /// Where each of ``parameters`` is.
    package let parameterLocations: [ResolvedSchema]
    /// Matches a concrete (decoded) path against the template.
    let matcher: CompiledRegex?

    /// The methods a path item may hold, as OpenAPI writes them.
    package static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Every operation under `paths`, in document order.
    package static func all(in documents: OpenAPIDocuments) -> [OpenAPIOperation] {
        guard case .object(let paths)? = documents.root["paths"] else { return [] }
        var operations: [OpenAPIOperation] = []
        for path in paths {
            let itemPointer = "#/paths/" + JSONPointer.escape(path.key)
            var item = path.value
            var itemDocument = ""
            if case .string(let reference)? = item["$ref"], let resolved = documents.resolve(reference, from: "") {
                item = resolved.schema
                itemDocument = resolved.document
            }
            let shared = parameters(item["parameters"], documents, itemDocument, at: itemPointer + "/parameters")
            for method in methods {
                guard let operation = item[method] else { continue }
                let own = parameters(
                    operation["parameters"], documents, itemDocument, at: itemPointer + "/" + method + "/parameters")
                var merged = own
                for parameter in shared
                where !own.contains(where: {
                    $0.schema["name"] == parameter.schema["name"] && $0.schema["in"] == parameter.schema["in"]
                }) {
                    merged.append(parameter)
                }
                operations.append(
                    OpenAPIOperation(
                        method: method.uppercased(), path: path.key, pointer: itemPointer + "/" + method,
                        operation: operation, parameters: merged.map(\.schema), parameterLocations: merged,
                        matcher: try? CompiledRegex(templateRegex(path.key))))
            }
        }
        return operations
    }

    private static func parameters(
        _ list: JSONValue?, _ documents: OpenAPIDocuments, _ document: String, at pointer: String
    ) -> [ResolvedSchema] {
        guard case .array(let items)? = list else { return [] }
        return items.enumerated().map { index, item in
            documents.dereference(item, document: document, pointer: pointer + "/\(index)")
        }
    }

    /// `/pets/{petId}.json` → `/pets/[^/]+\.json`.
    package static func templateRegex(_ template: String) -> String {
        var regex = ""
        var inParameter = false
        for character in template {
            if inParameter {
                if character == "}" {
                    inParameter = false
                    regex += "[^/]+"
                }
                continue
            }
            if character == "{" {
                inParameter = true
                continue
            }
            if "\\.^$|?*+()[]{}".contains(character) { regex.append("\\") }
            regex.append(character)
        }
        return regex
    }

    /// Whether a concrete path (after a server base path) is one of this template's.
    public func matches(path concrete: String) -> Bool {
        matcher?.matchesWhole(concrete) ?? (concrete == path)
    }

    /// The operation's responses object.
    public var responses: JSONValue? { operation["responses"] }

    /// The values of the path's `{name}` segments in a concrete path this template matches (a
    /// segment mixing text and a parameter, `{id}.json`, gives none).
    public func pathParameterValues(_ concrete: String) -> [String: String] {
        let names = path.split(separator: "/", omittingEmptySubsequences: false)
        let values = concrete.split(separator: "/", omittingEmptySubsequences: false)
        guard names.count == values.count else { return [:] }
        var found: [String: String] = [:]
        for (name, value) in zip(names, values) where name.hasPrefix("{") && name.hasSuffix("}") {
            let inner = name.dropFirst().dropLast()
            if !inner.contains("{") { found[String(inner)] = String(value) }
        }
        return found
    }
}
