import UnderstudyJSON
import UnderstudyJSONSchema
import UnderstudyOpenAPIContract
import UnderstudyStubFormat

/// Writes stubs from a spec (`understudy generate --openapi`): one stub per operation and declared
/// status, its body the spec's example when it is valid, else a small value the schema accepts
/// (``SampleValues``), judged by the schema validator before it is written.
///
/// Each operation's primary answer (its lowest `2XX` status, else its first declared one) answers
/// the plain request; every other status answers a request that asks for it with a
/// `Prefer: code=STATUS` header (Prism's convention), at priority 4 so it is tried first.
public struct StubGenerator: Sendable {
    /// The spec.
    public let spec: OpenAPISpec

    /// The request header that selects a non-primary status.
    public static let selectionHeader = "Prefer"

    /// A generator.
    public init(spec: OpenAPISpec) { self.spec = spec }

    /// Something `generate` could not do as the spec asks: a value that breaks a constraint of the
    /// schema (that stub is written with an `openapi.skip` giving the reason), or a status it could
    /// not give a stub.
    public struct Warning: Sendable, CustomStringConvertible {
        /// The stub concerned.
        public var stubID: String
        /// The spec pointer of the constraint (`spec.yaml#/components/schemas/Item/properties/sku/pattern`).
        public var pointer: String
        /// What could not be satisfied.
        public var message: String

        /// `warning: stub ID: message (spec POINTER)`.
        public var description: String {
            "warning: stub `\(stubID)`: \(message)" + (pointer.isEmpty ? "" : " (spec \(pointer))")
        }
    }

    /// What `generate` writes: the stub files and the warnings.
    public struct Output: Sendable {
        /// File name, indented JSON text, and how many stubs it holds.
        public var files: [(name: String, text: String, stubs: Int)]
        /// What could not be generated as the spec asks.
        public var warnings: [Warning]
    }

    /// One stub document per first path segment (`{"stubs": [...]}`), file name → document, and the warnings.
    public func generate() -> (documents: [(name: String, document: JSONValue)], warnings: [Warning]) {
        var groups: [String: [JSONValue]] = [:]
        var order: [String] = []
        var warnings: [Warning] = []
        for operation in spec.operations {
            let segment = operation.path.split(separator: "/").first.map(String.init) ?? "root"
            let name = Self.fileName(segment.hasPrefix("{") ? "root" : segment)
            if groups[name] == nil { order.append(name) }
            groups[name, default: []] += stubs(for: operation, warnings: &warnings)
        }
        let documents = order.map { ($0 + ".json", JSONValue.object([JSONMember(.stubs, .array(groups[$0]!))])) }
        return (documents, warnings)
    }

    /// The stub documents, file name → document (see ``generate()``).
    public func documents() -> [(name: String, document: JSONValue)] { generate().documents }

    /// The files as indented JSON text, with each file's stub count, and the warnings.
    public func output() -> Output {
        let (documents, warnings) = generate()
        let files = documents.map { name, document in
            var count = 0
            if case .array(let stubs)? = document["stubs"] { count = stubs.count }
            return (name: name, text: Self.indented(document) + "\n", stubs: count)
        }
        return Output(files: files, warnings: warnings)
    }

    /// ``output()``'s files.
    public func files() -> [(name: String, text: String, stubs: Int)] { output().files }

    private static func fileName(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
    }

    /// The concrete status each response key of an operation is given, in the keys' order: a code
    /// as itself; a range `5XX` as `500` (or its first code not declared on its own); `default` as
    /// the first of 500–599, then 400–499, that no code or range of the operation covers. A key
    /// that gets none maps to `nil`.
    static func statuses(for keys: [String]) -> [(key: String, status: Int?)] {
        let explicit = Set(keys.compactMap { Int($0) })
        let ranges = Set(
            keys.compactMap { key -> Int? in
                key.count == 3 && key.uppercased().hasSuffix("XX") ? Int(key.prefix(1)) : nil
            })
        var used: Set<Int> = []
        var result: [(key: String, status: Int?)] = []
        for key in keys {
            var status: Int?
            if let code = Int(key), (100...599).contains(code) {
                status = code
            } else if let hundreds = Int(key.prefix(1)), key.count == 3, key.uppercased().hasSuffix("XX"),
                (1...5).contains(hundreds)
            {
                status = (hundreds * 100..<hundreds * 100 + 100).first { !explicit.contains($0) && !used.contains($0) }
            } else if key == "default" {
                status = (Array(500...599) + Array(400...499)).first {
                    !explicit.contains($0) && !ranges.contains($0 / 100) && !used.contains($0)
                }
            }
            if let status { used.insert(status) }
            result.append((key, status))
        }
        return result
    }

    /// The stubs for one operation: one per declared status.
    func stubs(for operation: OpenAPIOperation, warnings: inout [Warning]) -> [JSONValue] {
        guard case .object(let responses)? = operation.responses else { return [] }
        let base = spec.basePaths.first ?? ""
        let samplePath = base + self.samplePath(operation)
        let idBase =
            operation.operation["operationId"]?.stringValue ?? "\(operation.method.lowercased())\(operation.path)"
        let assigned = Self.statuses(for: responses.map(\.key))
        let given = assigned.compactMap(\.status)
        let primary = given.filter { (200...299).contains($0) }.min() ?? given.first
        var stubs: [JSONValue] = []
        for (response, assignment) in zip(responses, assigned) {
            let pointer = operation.pointer + "/responses/" + JSONPointer.escape(response.key)
            guard let status = assignment.status else {
                warnings.append(
                    Warning(
                        stubID: idBase, pointer: spec.label("", pointer),
                        message: "no stub for response `\(response.key)`: no status is left that it alone describes"))
                continue
            }
            let id = "\(idBase)-\(status)"
            let resolved = spec.dereference(response.value, document: "", pointer: pointer)
            var answer: [JSONMember] = [JSONMember(.status, .int(status))]
            var headers: [JSONMember] = []
            let samples = SampleValues(spec: spec)
            if case .object(let declared)? = resolved.schema["headers"] {
                for header in declared where header.key.lowercased() != "content-type" {
                    let definition = spec.dereference(
                        header.value, document: resolved.document,
                        pointer: resolved.pointer + "/headers/" + JSONPointer.escape(header.key))
                    guard definition.schema["required"] == .bool(true) else { continue }
                    let value = definition.schema["schema"].map { samples.value($0, document: definition.document) }
                    headers.append(JSONMember(header.key, .string(value?.stringValue ?? value?.jsonText ?? "x")))
                }
            }
            var skip: String?
            if case .object(let content)? = resolved.schema["content"],
                let first = content.first(where: { Self.isJSON($0.key) }) ?? content.first
            {
                let mediaPointer = resolved.pointer + "/content/" + JSONPointer.escape(first.key)
                let media = spec.dereference(first.value, document: resolved.document, pointer: mediaPointer)
                let (body, problems) = self.body(media)
                if !problems.isEmpty {
                    for problem in problems {
                        warnings.append(
                            Warning(
                                stubID: id, pointer: spec.label(problem.schemaDocument, problem.schemaPointer),
                                message: "cannot generate a valid body: \(problem.instancePathText): \(problem.message)"
                            ))
                    }
                    skip =
                        "generate could not satisfy: "
                        + problems.map {
                            "\($0.instancePathText): \($0.message) (\(spec.label($0.schemaDocument, $0.schemaPointer)))"
                        }.joined(separator: "; ")
                }
                if Self.isJSON(first.key) {
                    if first.key.lowercased() != "application/json" {
                        headers.append(JSONMember("Content-Type", .string(first.key)))
                    }
                    answer.append(JSONMember(.json, body))
                } else {
                    headers.append(JSONMember("Content-Type", .string(first.key)))
                    answer.append(JSONMember(.body, .string(body.stringValue ?? body.jsonText)))
                }
            }
            if !headers.isEmpty { answer.insert(JSONMember(.headers, .object(headers)), at: 1) }
            var request: [JSONMember] = [
                JSONMember(.method, .string(operation.method)), JSONMember(.path, .string(samplePath)),
            ]
            var stub: [JSONMember] = [JSONMember(.id, .string(id))]
            if status != primary {
                // Selected by `Prefer: code=STATUS` among other preferences (RFC 7240 lists them
                // with `,` or `;`), tried before the primary stub, which has no such condition.
                request.append(
                    JSONMember(
                        "headers",
                        .object([
                            JSONMember(
                                Self.selectionHeader,
                                .object([JSONMember(.matches, .string("(.*[ ,;])?code=\(status)([ ,;].*)?"))]))
                        ])))
                stub.append(JSONMember(.priority, .int(4)))
            }
            stub.append(JSONMember(.request, .object(request)))
            if let skip { stub.append(JSONMember(.openapi, .object([JSONMember("skip", .string(skip))]))) }
            stub.append(JSONMember(.responses, .array([.object(answer)])))
            stubs.append(.object(stub))
        }
        return stubs
    }

    /// The body for a media type: its example when the schema accepts it, else a generated value;
    /// with the violations of the value written when none is accepted.
    private func body(_ media: ResolvedSchema) -> (JSONValue, [SchemaViolation]) {
        let schema = media.schema["schema"]
        let example = self.example(media.schema, document: media.document)
        guard let schema else { return (example ?? .object([]), []) }
        let validator = spec.validator(direction: .response, strictExtraFields: false)
        let at = media.pointer + "/schema"
        var candidates: [JSONValue] = []
        if let example { candidates.append(example) }
        candidates.append(SampleValues(spec: spec).value(schema, document: media.document))
        candidates.append(SampleValues(spec: spec, useExamples: false).value(schema, document: media.document))
        for candidate in candidates where validator.isValid(candidate, against: schema, at: at, in: media.document) {
            return (candidate, [])
        }
        // None is valid: the generated value (not the spec's example), with what it breaks.
        let generated = candidates[candidates.count - 1]
        return (generated, validator.validate(generated, against: schema, at: at, in: media.document).violations)
    }

    /// A concrete path for the operation: each path parameter's `enum`, `example` or `default`, else
    /// `1` when its schema accepts it, else a value generated from the schema.
    func samplePath(_ operation: OpenAPIOperation) -> String {
        operation.filledPath { pathValue($0, of: operation) }
    }

    private func pathValue(_ name: String, of operation: OpenAPIOperation) -> String {
        if let declared = operation.declaredSample(name) { return declared }
        guard
            let parameter = operation.parameters.first(where: {
                $0["name"]?.stringValue == name && $0["in"]?.stringValue == "path"
            }), let schema = parameter["schema"]
        else { return "1" }
        let validator = spec.validator(direction: .request, strictExtraFields: false)
        let one: JSONValue = ["integer", "number"].contains(SampleValues.type(of: schema) ?? "") ? 1 : "1"
        if validator.isValid(one, against: schema, at: operation.pointer) { return "1" }
        let value = SampleValues(spec: spec).value(schema, document: "")
        return value.stringValue ?? value.jsonText
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
