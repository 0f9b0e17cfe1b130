import Foundation
import UnderstudyCore
import UnderstudyJSON
import UnderstudyJSONSchema
import UnderstudyOpenAPIContract
import UnderstudyStubFormat

/// Checks one stub response against one operation's responses.
struct ResponseCheck {
    let spec: OpenAPISpec
    let operation: OpenAPIOperation
    let strictExtraFields: Bool

    func check(_ context: ResponseContext) -> [OpenAPIFinding] {
        var findings: [OpenAPIFinding] = []
        let response = context.response
        let file = context.stubFile
        func at(_ node: JSONNode, _ path: JSONPath, _ message: String, pointer: String) -> OpenAPIFinding {
            OpenAPIFinding(
                file: file, line: node.position.line, column: node.position.column, stubPath: path.text,
                specPointer: pointer, message: message)
        }
        let responsesPointer = operation.pointer + "/responses"
        let statusNode = context.node.member("status") ?? context.node
        let statusPath = context.node.member("status") == nil ? context.path : context.path.member("status")
        guard case .object(let declared)? = operation.responses else {
            return [
                at(
                    statusNode, statusPath, "\(operation.method) \(operation.path) declares no responses",
                    pointer: spec.file + operation.pointer)
            ]
        }
        let status = String(response.status)
        guard let entry = OpenAPIContract.declaredResponse(for: response.status, in: declared) else {
            let list = declared.map(\.key).joined(separator: ", ")
            return [
                at(
                    statusNode, statusPath,
                    "status \(status) is not declared for \(operation.method) \(operation.path) (it declares \(list))",
                    pointer: spec.file + responsesPointer)
            ]
        }
        let resolved = spec.dereference(
            entry.value, document: "", pointer: responsesPointer + "/" + JSONPointer.escape(entry.key))
        let declaredResponse = resolved.schema

        // Required headers.
        if case .object(let headers)? = declaredResponse["headers"] {
            let headersNode = context.node.member("headers") ?? context.node
            let headersPath = context.node.member("headers") == nil ? context.path : context.path.member("headers")
            for header in headers where header.key.lowercased() != "content-type" {
                let definition = spec.dereference(
                    header.value, document: resolved.document,
                    pointer: resolved.pointer + "/headers/" + JSONPointer.escape(header.key))
                if definition.schema["required"] == .bool(true), !context.sent.contains(header.key) {
                    findings.append(
                        at(
                            headersNode, headersPath, "required response header `\(header.key)` is missing",
                            pointer: spec.label(
                                resolved.document, resolved.pointer + "/headers/" + JSONPointer.escape(header.key))))
                }
            }
        }

        // Body and media type.
        let bodyKey = StubFormat.bodySourceKeys.first { context.node.member($0) != nil }
        let hasBody = !response.body.isEmpty || response.template != nil || response.streaming != nil || bodyKey != nil
        guard hasBody else { return findings }
        let bodyNode = bodyKey.flatMap { context.node.member($0) } ?? context.node
        let bodyPath = bodyKey.map { context.path.member($0) } ?? context.path
        let contentPointer = resolved.pointer + "/content"
        guard case .object(let content)? = declaredResponse["content"], !content.isEmpty else {
            findings.append(
                at(
                    bodyNode, bodyPath,
                    "the stub sends a body, but status \(entry.key) of \(operation.method) \(operation.path) declares none",
                    pointer: spec.label(resolved.document, resolved.pointer)))
            return findings
        }
        let sent = context.sent["Content-Type"].map(Self.mediaType)
        let declaredTypes = content.map { Self.mediaType($0.key) }
        guard let chosen = OpenAPIContract.chosenMediaType(sent: sent, declared: declaredTypes) else {
            let node =
                context.node.member("headers")?.memberEntry(where: { $0.lowercased() == "content-type" })?.value
                ?? bodyNode
            let path =
                context.node.member("headers") != nil && sent != nil
                ? context.path.member("headers").member("Content-Type") : bodyPath
            let what = sent.map { "media type \($0) is" } ?? "a body without a Content-Type is"
            findings.append(
                at(
                    node, path,
                    "\(what) not declared for status \(entry.key) of \(operation.method) \(operation.path) (it declares \(declaredTypes.joined(separator: ", ")))",
                    pointer: spec.label(resolved.document, contentPointer)))
            return findings
        }
        let mediaPointer = contentPointer + "/" + JSONPointer.escape(content[chosen].key)
        let media = spec.dereference(content[chosen].value, document: resolved.document, pointer: mediaPointer)
        guard Self.isJSON(declaredTypes[chosen]) || (sent.map(Self.isJSON) ?? false),
            let schema = media.schema["schema"]
        else {
            return findings
        }
        if response.template != nil || response.streaming != nil {
            findings.append(
                OpenAPIFinding(
                    file: file, line: bodyNode.position.line, column: bodyNode.position.column,
                    stubPath: bodyPath.text, message: "templated or streamed body not checked against the schema",
                    severity: .warning))
            return findings
        }
        // The instance, with positions: inline `json`, a `bodyFile`, or `body` text.
        var instanceFile = file
        var instance: JSONNode
        var positionsInside = true
        if bodyKey == "json", let node = context.node.member("json") {
            instance = node
        } else if bodyKey == "bodyFile", let name = bodyNode.stringValue,
            let parsed = Self.parseFile(name, besides: file)
        {
            instance = parsed.node
            instanceFile = parsed.path
        } else if let parsed = try? JSONParser.parse(response.body) {
            instance = parsed
            positionsInside = false
        } else {
            findings.append(
                at(
                    bodyNode, bodyPath, "the body is not JSON, but \(declaredTypes[chosen]) is declared with a schema",
                    pointer: spec.label(media.document, media.pointer)))
            return findings
        }
        let validator = spec.validator(direction: .response, strictExtraFields: strictExtraFields)
        let outcome = validator.validate(
            instance.value, against: schema, at: media.pointer + "/schema", in: media.document)
        for violation in outcome.violations {
            let node = positionsInside ? Self.node(at: violation.instancePath, in: instance) : bodyNode
            let inFile = positionsInside ? instanceFile : file
            findings.append(
                OpenAPIFinding(
                    file: inFile, line: node.position.line, column: node.position.column,
                    stubPath: instanceFile == file ? bodyPath.text : "", bodyPath: violation.instancePathText,
                    specPointer: spec.label(violation.schemaDocument, violation.schemaPointer),
                    message: violation.message))
        }
        for warning in outcome.warnings {
            findings.append(OpenAPIFinding(file: spec.file, line: 1, column: 1, message: warning, severity: .warning))
        }
        return findings
    }

    /// The deepest node along `steps` (a missing step stops at its parent).
    static func node(at steps: [InstanceStep], in root: JSONNode) -> JSONNode {
        var current = root
        for step in steps {
            switch (step, current.kind) {
            case (.member(let key), .object(let members)):
                guard let member = members.first(where: { $0.key == key }) else { return current }
                current = member.value
            case (.element(let index), .array(let items)) where items.indices.contains(index):
                current = items[index]
            default:
                return current
            }
        }
        return current
    }

    static func mediaType(_ text: String) -> String { OpenAPIContract.mediaType(text) }

    static func isJSON(_ type: String) -> Bool { OpenAPIContract.isJSON(type) }

    static func parseFile(_ name: String, besides stubFile: String) -> (path: String, node: JSONNode)? {
        let directory = stubFile.contains("/") ? String(stubFile[..<stubFile.lastIndex(of: "/")!]) : "."
        let path = name.hasPrefix("/") ? name : directory + "/" + name
        guard let data = FileManager.default.contents(atPath: path), let node = try? JSONParser.parse([UInt8](data))
        else { return nil }
        return (path, node)
    }
}

extension JSONNode {
    func memberEntry(where matches: (String) -> Bool) -> Member? {
        members?.first { matches($0.key) }
    }
}
