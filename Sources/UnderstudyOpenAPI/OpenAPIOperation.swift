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
    let operation: JSONValue
    /// Path-item and operation parameters, `$ref`s followed, the operation's winning.
    let parameters: [JSONValue]
    /// Matches a concrete (decoded) path against the template.
    let matcher: CompiledRegex?

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Every operation under `paths`, in document order.
    static func all(in documents: SpecDocuments) -> [OpenAPIOperation] {
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
            let shared = parameters(item["parameters"], documents, itemDocument)
            for method in methods {
                guard let operation = item[method] else { continue }
                let own = parameters(operation["parameters"], documents, itemDocument)
                var merged = own
                for parameter in shared
                where !own.contains(where: { $0["name"] == parameter["name"] && $0["in"] == parameter["in"] }) {
                    merged.append(parameter)
                }
                operations.append(
                    OpenAPIOperation(
                        method: method.uppercased(), path: path.key, pointer: itemPointer + "/" + method,
                        operation: operation,
                        parameters: merged, matcher: try? CompiledRegex(templateRegex(path.key))))
            }
        }
        return operations
    }

    private static func parameters(_ list: JSONValue?, _ documents: SpecDocuments, _ document: String) -> [JSONValue] {
        guard case .array(let items)? = list else { return [] }
        return items.map { item in
            if case .string(let reference)? = item["$ref"], let resolved = documents.resolve(reference, from: document)
            {
                return resolved.schema
            }
            return item
        }
    }

    /// `/pets/{petId}.json` → `/pets/[^/]+\.json`.
    static func templateRegex(_ template: String) -> String {
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
    func matches(path concrete: String) -> Bool {
        matcher?.matchesWhole(concrete) ?? (concrete == path)
    }

    /// Concrete paths this template stands for, with sample values for its parameters (for
    /// stubs that give a path regex rather than a path): first each parameter's own `enum`,
    /// `example` or `default`, then common shapes of ids.
    func samplePaths() -> [String] {
        let samples = ["", "1", "42", "abc", "a1b2c3", "00000000-0000-0000-0000-000000000000", "2024-01-01", "x"]
        return samples.map { sample in
            var text = ""
            var name: String?
            for character in path {
                if var current = name {
                    if character == "}" {
                        text += sample.isEmpty ? declaredSample(current) ?? "1" : sample
                        name = nil
                    } else {
                        current.append(character)
                        name = current
                    }
                } else if character == "{" {
                    name = ""
                } else {
                    text.append(character)
                }
            }
            return text
        }
    }

    /// The path parameter's `enum[0]`, `example` or `default` (its own or its schema's).
    private func declaredSample(_ name: String) -> String? {
        guard
            let parameter = parameters.first(where: {
                $0["name"]?.stringValue == name && $0["in"]?.stringValue == "path"
            })
        else { return nil }
        let schema = parameter["schema"]
        let candidates: [JSONValue?] = [
            { if case .array(let values)? = schema?["enum"] { values.first } else { nil } }(),
            parameter["example"], schema?["example"], schema?["default"],
        ]
        guard let value = candidates.compactMap({ $0 }).first else { return nil }
        return value.stringValue ?? value.jsonText
    }

    /// The operation's responses object.
    var responses: JSONValue? { operation["responses"] }
}
