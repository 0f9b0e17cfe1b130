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
        for (index, response) in stub.responses.enumerated() where index < rawResponses.count {
            if response.fault != nil { continue }
            report.checkedResponses += 1
            let context = ResponseContext(
                stubFile: file, node: rawResponses[index],
                path: path.member("responses").element(index), response: response)
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
