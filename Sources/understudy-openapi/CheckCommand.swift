import ArgumentParser
import UnderstudyCore
import UnderstudyOpenAPI

/// `understudy-openapi check --openapi SPEC PATH…`: every stub checked against the spec (what
/// `understudy check --openapi` runs once the stub files load).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Check stub files against an OpenAPI document; print each finding as file:line:column: error: message."
    )

    @Argument(help: "Stub files or directories.")
    var paths: [String]

    @Option(name: .customLong("openapi"), help: "The OpenAPI 3.0/3.1 document (YAML or JSON).")
    var openAPI: String

    @Flag(name: .customLong("strict-extra-fields"), help: "Members a schema's properties do not list are errors.")
    var strictExtraFields = false

    @Option(name: .customLong("since"), help: "List only the stubs --openapi breaks that this older spec accepted.")
    var since: String?

    func run() throws {
        let stubs: StubSet
        do {
            stubs = try StubLoader.load(paths: paths)
        } catch {
            for problem in error.errors { ToolOutput.out(problem.description) }
            ToolOutput.error("understudy check: \(error.errors.count) error\(error.errors.count == 1 ? "" : "s")")
            throw ExitCode(1)
        }
        let spec = try load(openAPI)
        let report = StubChecker(spec: spec, strictExtraFields: strictExtraFields).check(stubs)
        if let since {
            try compare(report, against: since, stubs, newFile: openAPI)
            return
        }
        for finding in report.findings { ToolOutput.out(finding.description) }
        for skipped in report.skipped {
            ToolOutput.out("\(skipped.file): skipped: stub `\(skipped.id)`: \(skipped.reason)")
        }
        let errors = report.errors.count, warnings = report.warnings.count
        let summary =
            "\(report.checkedStubs) stubs (\(report.checkedResponses) responses) checked against \(openAPI) "
            + "(OpenAPI \(spec.version), \(spec.operations.count) operations): \(errors) error\(errors == 1 ? "" : "s"), "
            + "\(warnings) warning\(warnings == 1 ? "" : "s"), \(report.skipped.count) skipped"
        if errors > 0 {
            ToolOutput.error("understudy check: \(summary)")
            throw ExitCode(1)
        }
        ToolOutput.out("understudy check: \(summary)")
    }

    private func load(_ specFile: String) throws -> OpenAPISpec {
        do {
            return try OpenAPISpec.load(specFile)
        } catch {
            for finding in error.findings { ToolOutput.out(finding.description) }
            ToolOutput.error("understudy check: the OpenAPI document \(specFile) cannot be used; no stub was checked")
            throw ExitCode(1)
        }
    }

    /// `--since OLD`: the stubs the new spec breaks that the old one accepted, with the new findings.
    private func compare(_ report: StubCheckReport, against oldFile: String, _ stubs: StubSet, newFile: String) throws {
        let old = StubChecker(spec: try load(oldFile), strictExtraFields: strictExtraFields).check(stubs)
        let broken = report.failingStubs.subtracting(old.failingStubs)
        for finding in report.errors where finding.stubID.map(broken.contains) == true {
            ToolOutput.out(finding.description)
        }
        let stillBroken = report.failingStubs.intersection(old.failingStubs).count
        let summary =
            "\(broken.count) stub\(broken.count == 1 ? "" : "s") accepted by \(oldFile) "
            + "\(broken.count == 1 ? "is" : "are") broken by \(newFile)\(broken.isEmpty ? "" : ": " + broken.sorted().joined(separator: ", "))"
            + " (\(stillBroken) already off-spec under both, \(report.checkedStubs) checked)"
        if !broken.isEmpty {
            ToolOutput.error("understudy check: \(summary)")
            throw ExitCode(1)
        }
        ToolOutput.out("understudy check: \(summary)")
    }
}
