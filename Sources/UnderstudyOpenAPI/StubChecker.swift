import Foundation
import UnderstudyCore
import UnderstudyJSON
import UnderstudyJSONSchema
import UnderstudyOpenAPIContract

/// Checks stubs against an ``OpenAPISpec``: each stub's request must reach an operation, and each
/// response in its sequence must be a declared status with a declared media type, the required
/// headers, and a JSON body valid against the schema. Every finding names the stub file, line and
/// column, the JSON path in the stub (and in the body), and the spec pointer of what was expected.
public struct StubChecker: Sendable {
    /// The spec.
    public let spec: OpenAPISpec
    /// `--strict-extra-fields`: members a schema with `properties` does not list are errors.
    public var strictExtraFields: Bool

    /// A checker.
    public init(spec: OpenAPISpec, strictExtraFields: Bool = false) {
        self.spec = spec
        self.strictExtraFields = strictExtraFields
    }

    /// Loads the stub files (as `understudy check` does: an invalid stub set throws its errors) and
    /// checks every stub.
    public func check(paths: [String]) throws(StubLoadFailure) -> StubCheckReport {
        let set = try StubLoader.load(paths: paths)
        return check(set)
    }

    /// Checks loaded stubs; their files are read again for positions.
    public func check(_ set: StubSet) -> StubCheckReport {
        var report = StubCheckReport()
        var byFile: [String: [Stub]] = [:]
        var order: [String] = []
        for stub in set.stubs {
            if byFile[stub.file] == nil { order.append(stub.file) }
            byFile[stub.file, default: []].append(stub)
        }
        var warned: Set<String> = []
        for file in order {
            let stubs = byFile[file]!
            guard let data = FileManager.default.contents(atPath: file),
                let root = try? JSONParser.parse([UInt8](data)),
                let rawStubs = root.member("stubs")?.elements, rawStubs.count == stubs.count
            else {
                report.findings.append(
                    OpenAPIFinding(
                        file: file, line: 1, column: 1,
                        message: "not checked: only Understudy's own stub format is checked against OpenAPI",
                        severity: .warning))
                continue
            }
            for (index, (stub, raw)) in zip(stubs, rawStubs).enumerated() {
                let path = JSONPath.root.member("stubs").element(index)
                if let skip = raw.member("openapi")?.member("skip")?.stringValue {
                    report.skipped.append(.init(id: stub.id, file: file, reason: skip))
                    continue
                }
                report.checkedStubs += 1
                for var finding in check(stub, raw: raw, path: path, report: &report) {
                    finding.stubID = stub.id
                    if finding.severity == .warning {
                        guard warned.insert(finding.message).inserted else { continue }
                    }
                    report.findings.append(finding)
                }
            }
        }
        report.findings.sort { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
        return report
    }

    private func check(_ stub: Stub, raw: JSONNode, path: JSONPath, report: inout StubCheckReport) -> [OpenAPIFinding] {
        let file = stub.file
        let requestNode = raw.member("request") ?? raw
        let requestPath = raw.member("request") == nil ? path : path.member("request")
        func at(_ node: JSONNode, _ nodePath: JSONPath, _ message: String, pointer: String = "") -> OpenAPIFinding {
            OpenAPIFinding(
                file: file, line: node.position.line, column: node.position.column, stubPath: nodePath.text,
                specPointer: pointer, message: message)
        }
        let reached: [OpenAPIOperation]
        switch OperationMapping.operations(for: stub.request, in: spec) {
        case .reached(let operations):
            reached = operations
        case .undecided(let message):
            let key = ["pathPattern", "urlPattern"].first { requestNode.member($0) != nil }
            let node = key.flatMap { requestNode.member($0) } ?? requestNode
            var finding = at(
                node, key.map { requestPath.member($0) } ?? requestPath, message, pointer: spec.file + "#/paths")
            finding.severity = .warning
            return [finding]
        case .unreachable(let message):
            let pathNode = ["path", "pathPattern", "url", "urlPattern"].lazy.compactMap { requestNode.member($0) }.first
            let key = ["path", "pathPattern", "url", "urlPattern"].first { requestNode.member($0) != nil }
            return [
                at(
                    pathNode ?? requestNode, key.map { requestPath.member($0) } ?? requestPath, message,
                    pointer: spec.file + "#/paths")
            ]
        }
        let rawResponses = raw.member("responses")?.elements ?? []
        var findings: [OpenAPIFinding] = []
        var contexts: [ResponseContext] = []
        for (index, response) in stub.responses.enumerated() where index < rawResponses.count {
            if response.fault != nil { continue }
            // The headers as the daemon sends them (`retryAfter`, `rateLimit`'s, `Date`, …), from
            // the code that serves them.
            contexts.append(
                ResponseContext(
                    stubFile: file, node: rawResponses[index], path: path.member("responses").element(index),
                    response: response, sent: ServedHeaders.answer(of: stub, response: index)))
        }
        if let refusal = ServedHeaders.refusal(of: stub), let node = raw.member("rateLimit") {
            // A request over the limit gets the refusal: it is an answer of the stub too.
            let response = StubResponse(status: refusal.status, headers: refusal.headers, body: refusal.body)
            contexts.append(
                ResponseContext(
                    stubFile: file, node: node, path: path.member("rateLimit"), response: response,
                    sent: refusal.headers))
        }
        for context in contexts {
            report.checkedResponses += 1
            var best: [OpenAPIFinding]?
            for operation in reached {
                let found = ResponseCheck(spec: spec, operation: operation, strictExtraFields: strictExtraFields).check(
                    context)
                if best == nil
                    || found.filter({ $0.severity == .error }).count < best!.filter({ $0.severity == .error }).count
                {
                    best = found
                }
                if found.allSatisfy({ $0.severity == .warning }) { break }
            }
            findings += best ?? []
        }
        return findings
    }
}

/// One stub response and where it was written.
struct ResponseContext {
    var stubFile: String
    var node: JSONNode
    var path: JSONPath
    var response: StubResponse
    /// The header fields the daemon sends with it (``ServedHeaders``).
    var sent: HTTPHeaders
}

extension JSONNode {
    /// The value of member `key`, when this is an object that has it.
    func member(_ key: String) -> JSONNode? {
        members?.first { $0.key == key }?.value
    }

    /// The member `key` with its key's position.
    func memberEntry(_ key: String) -> Member? {
        members?.first { $0.key == key }
    }
}
