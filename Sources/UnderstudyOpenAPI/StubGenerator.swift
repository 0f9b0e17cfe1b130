import UnderstudyJSON
import UnderstudyJSONSchema
import UnderstudyOpenAPIContract

/// Writes stubs from a spec (`understudy generate --openapi`): one stub per operation and declared
/// status, its body the spec's example when there is one, else a minimal value the schema accepts
/// (required properties only, each from its `example`, `default`, `enum` or type).
public struct StubGenerator: Sendable {
    /// The spec.
    public let spec: OpenAPISpec

    /// A generator.
    public init(spec: OpenAPISpec) { self.spec = spec }

    /// One stub document per tag-less file: `{"stubs": [...]}` for every operation, grouped by the
    /// first path segment (file name → document).
    public func documents() -> [(name: String, document: JSONValue)] {
        var groups: [String: [JSONValue]] = [:]
        var order: [String] = []
        for operation in spec.operations {
            let segment = operation.path.split(separator: "/").first.map(String.init) ?? "root"
            let name = Self.fileName(segment.hasPrefix("{") ? "root" : segment)
            if groups[name] == nil { order.append(name) }
            groups[name, default: []] += stubs(for: operation)
        }
        return order.map { ($0 + ".json", JSONValue.object([JSONMember("stubs", .array(groups[$0]!))])) }
    }

    /// ``documents()`` as indented JSON text, with each file's stub count.
    public func files() -> [(name: String, text: String, stubs: Int)] {
        documents().map { name, document in
            var count = 0
            if case .array(let stubs)? = document["stubs"] { count = stubs.count }
            return (name, Self.indented(document) + "\n", count)
        }
    }

    private static func fileName(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
    }

    /// The stubs for one operation: one per declared status (`default` as 500, `2XX` as 200, …).
    func stubs(for operation: OpenAPIOperation) -> [JSONValue] {
        guard case .object(let responses)? = operation.responses else { return [] }
        let base = spec.basePaths.first ?? ""
        var stubs: [JSONValue] = []
        var usedStatuses: Set<Int> = []
        for response in responses {
            guard let status = Self.status(response.key, used: usedStatuses) else { continue }
            usedStatuses.insert(status)
            let pointer = operation.pointer + "/responses/" + JSONPointer.escape(response.key)
            let resolved = spec.dereference(response.value, document: "", pointer: pointer)
            var answer: [JSONMember] = [JSONMember("status", .int(status))]
            var headers: [JSONMember] = []
            if case .object(let declared)? = resolved.schema["headers"] {
                for header in declared where header.key.lowercased() != "content-type" {
                    let definition = spec.dereference(header.value, document: resolved.document, pointer: pointer)
                    guard definition.schema["required"] == .bool(true) else { continue }
                    let value = definition.schema["schema"].map { minimal($0, document: definition.document, depth: 0) }
                    headers.append(JSONMember(header.key, .string(value?.stringValue ?? value?.jsonText ?? "x")))
                }
            }
            if case .object(let content)? = resolved.schema["content"],
                let first = content.first(where: { Self.isJSON($0.key) }) ?? content.first
            {
                let media = spec.dereference(first.value, document: resolved.document, pointer: pointer)
                let body =
                    example(media.schema, document: media.document)
                    ?? media.schema["schema"].map { minimal($0, document: media.document, depth: 0) } ?? .object([])
                if Self.isJSON(first.key) {
                    if first.key.lowercased() != "application/json" {
                        headers.append(JSONMember("Content-Type", .string(first.key)))
                    }
                    answer.append(JSONMember("json", body))
                } else {
                    headers.append(JSONMember("Content-Type", .string(first.key)))
                    answer.append(JSONMember("body", .string(body.stringValue ?? body.jsonText)))
                }
            }
            if !headers.isEmpty { answer.insert(JSONMember("headers", .object(headers)), at: 1) }
            let samplePath = base + (operation.samplePaths().first ?? operation.path)
            let id =
                (operation.operation["operationId"]?.stringValue ?? "\(operation.method.lowercased())\(operation.path)")
                + "-\(status)"
            stubs.append(
                .object([
                    JSONMember("id", .string(id)),
                    JSONMember(
                        "request",
                        .object([
                            JSONMember("method", .string(operation.method)), JSONMember("path", .string(samplePath)),
                        ])),
                    JSONMember("responses", .array([.object(answer)])),
                ]))
        }
        return stubs
    }

    private static func status(_ key: String, used: Set<Int>) -> Int? {
        if let status = Int(key), (100...599).contains(status) { return status }
        if key.count == 3, key.uppercased().hasSuffix("XX"), let hundreds = Int(key.prefix(1)) {
            return hundreds * 100
        }
        if key == "default" { return used.contains(500) ? nil : 500 }
        return nil
    }

    static func isJSON(_ type: String) -> Bool {
        let lower = type.lowercased()
        return lower.hasPrefix("application/json") || lower.contains("+json")
    }

    /// The media type's `example`, or its first `examples` value.
    private func example(_ media: JSONValue, document: String) -> JSONValue? {
        if let example = media["example"] { return example }
        if case .object(let examples)? = media["examples"], let first = examples.first {
            let resolved = spec.dereference(first.value, document: document, pointer: "#")
            return resolved.schema["value"]
        }
        return nil
    }

    /// A small value `schema` accepts.
    func minimal(_ schema: JSONValue, document: String, depth: Int) -> JSONValue {
        guard depth < 12 else { return .null }
        if case .string(let reference)? = schema["$ref"], let target = spec.documents.resolve(reference, from: document)
        {
            return minimal(target.schema, document: target.document, depth: depth + 1)
        }
        if let example = schema["example"] { return example }
        if case .array(let examples)? = schema["examples"], let first = examples.first { return first }
        if let value = schema["default"] { return value }
        if let value = schema["const"] { return value }
        if case .array(let values)? = schema["enum"], let first = values.first { return first }
        if case .array(let branches)? = schema["allOf"] {
            var members: [JSONMember] = []
            for branch in branches {
                if case .object(let part) = minimal(branch, document: document, depth: depth + 1) {
                    for member in part where !members.contains(where: { $0.key == member.key }) {
                        members.append(member)
                    }
                }
            }
            return .object(members)
        }
        for keyword in ["oneOf", "anyOf"] {
            if case .array(let branches)? = schema[keyword], let first = branches.first {
                return minimal(first, document: document, depth: depth + 1)
            }
        }
        var type = schema["type"]?.stringValue
        if case .array(let types)? = schema["type"] { type = types.compactMap(\.stringValue).first { $0 != "null" } }
        if type == nil, schema["properties"] != nil { type = "object" }
        if type == nil, schema["items"] != nil { type = "array" }
        switch type {
        case "object":
            var members: [JSONMember] = []
            guard case .array(let required)? = schema["required"] else { return .object([]) }
            for case .string(let name) in required {
                let property = schema["properties"]?[name] ?? .object([])
                if property["writeOnly"] == .bool(true) { continue }
                members.append(JSONMember(name, minimal(property, document: document, depth: depth + 1)))
            }
            return .object(members)
        case "array":
            let count = Int(schema["minItems"]?.doubleValue ?? 0)
            guard count > 0, let items = schema["items"] else { return .array([]) }
            return .array(Array(repeating: minimal(items, document: document, depth: depth + 1), count: count))
        case "integer", "number":
            let minimum = schema["minimum"]?.doubleValue ?? schema["exclusiveMinimum"]?.doubleValue.map { $0 + 1 } ?? 0
            let value =
                max(minimum.rounded(.up), 0) <= (schema["maximum"]?.doubleValue ?? .infinity)
                ? max(minimum.rounded(.up), 0) : minimum
            return .number(String(Int(value)))
        case "boolean":
            return .bool(false)
        case "null":
            return .null
        case "string":
            let length = Int(schema["minLength"]?.doubleValue ?? 0)
            switch schema["format"]?.stringValue {
            case "date-time": return "2024-01-01T00:00:00Z"
            case "date": return "2024-01-01"
            case "uuid": return "00000000-0000-0000-0000-000000000000"
            case "email": return "someone@example.com"
            case "uri", "url": return "https://example.com/"
            default: return .string(String(repeating: "x", count: max(length, 1)))
            }
        default:
            return .object([])
        }
    }
}

extension StubGenerator {
    /// `value` as indented JSON (two spaces; short scalar arrays kept on one line), so generated files
    /// read like hand-written ones and findings point at distinct lines.
    public static func indented(_ value: JSONValue, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .object(let members):
            if members.isEmpty { return "{}" }
            let lines = members.map {
                inner + JSONValue.string($0.key).jsonText + ": " + indented($0.value, indent: inner)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let items):
            if items.isEmpty { return "[]" }
            if items.allSatisfy({ if case .object = $0 { false } else if case .array = $0 { false } else { true } }) {
                return "[" + items.map(\.jsonText).joined(separator: ", ") + "]"
            }
            return "[\n" + items.map { inner + indented($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent
                + "]"
        default:
            return value.jsonText
        }
    }
}
