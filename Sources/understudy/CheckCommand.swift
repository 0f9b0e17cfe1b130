import ArgumentParser
import UnderstudyCore
import UnderstudyOpenAPI

/// `understudy check`: validates stub files without serving them, and with `--openapi`, checks
/// every stub against the API's OpenAPI document.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate stub files; print each error as file:line:column: error: message.",
        discussion: """
            Exits 0 when every file is valid, 1 otherwise. Errors go to stdout, one per line, in the format editors and \
            CI annotate. With --openapi, each stub's request must reach an operation of the spec and each response in \
            its sequence must be a declared status, media type and headers, with a body valid against the schema.
            """
    )

    @Argument(help: "Stub files or directories (default: stubs).")
    var paths: [String] = []

    @Option(name: .customLong("openapi"), help: "Check the stubs against this OpenAPI 3.0/3.1 document (YAML or JSON).")
    var openAPI: String?

    @Flag(
        name: .customLong("strict-extra-fields"),
        help: "With --openapi: members a schema's properties do not list are errors.")
    var strictExtraFields = false

    @Option(
        name: .customLong("since"),
        help: "With --openapi NEW: list only the stubs NEW breaks that this older spec accepted.")
    var since: String?

    @OptionGroup(title: "WireMock")
    var wireMock: WireMockFlags

    func run() throws {
        let given = paths
        let paths = DefaultStubPaths.paths(given)
        let stubs: StubSet
        do {
            stubs = try StubLoader.load(paths: paths, options: wireMock.loadOptions)
        } catch {
            let error = DefaultStubPaths.explained(error, given: given, command: "check")
            for problem in error.errors {
                Console.out(problem.description)
            }
            Console.error("understudy check: \(error.errors.count) error\(error.errors.count == 1 ? "" : "s")")
            throw ExitCode(1)
        }
        // WireMock's leniencies and the mappings `serve` would skip: said, but not failures.
        for warning in stubs.warningLines { Console.out(warning.description) }
        if let openAPI {
            try checkAgainst(openAPI, stubs)
            return
        }
        let responses = stubs.stubs.flatMap(\.responses)
        let templated = responses.filter { $0.template != nil }.count
        let streamed = responses.filter { $0.streaming != nil }.count
        // Templates are compiled and their names checked while loading, so OK covers them too.
        let dynamic =
            templated + streamed == 0
            ? "" : " (\(templated) templated, \(streamed) streamed response\(streamed == 1 ? "" : "s"))"
        let skipped =
            stubs.skipped.isEmpty
            ? ""
            : "; \(stubs.skipped.count) WireMock mapping\(stubs.skipped.count == 1 ? "" : "s") skipped (--strict refuses them)"
        Console.out("understudy check: \(stubs.count) stubs OK in \(paths.joined(separator: " "))\(dynamic)\(skipped)")
    }

    private func load(_ specFile: String) throws -> OpenAPISpec {
        do {
            return try OpenAPISpec.load(specFile)
        } catch {
            for finding in error.findings { Console.out(finding.description) }
            Console.error("understudy check: the OpenAPI document \(specFile) cannot be used; no stub was checked")
            throw ExitCode(1)
        }
    }

    private func checkAgainst(_ specFile: String, _ stubs: StubSet) throws {
        let spec = try load(specFile)
        let report = StubChecker(spec: spec, strictExtraFields: strictExtraFields).check(stubs)
        if let since {
            try compare(report, against: since, stubs, newFile: specFile)
            return
        }
        for finding in report.findings { Console.out(finding.description) }
        for skipped in report.skipped {
            Console.out("\(skipped.file): skipped: stub `\(skipped.id)`: \(skipped.reason)")
        }
        let errors = report.errors.count, warnings = report.warnings.count
        let summary =
            "\(report.checkedStubs) stubs (\(report.checkedResponses) responses) checked against \(specFile) "
            + "(OpenAPI \(spec.version), \(spec.operations.count) operations): \(errors) error\(errors == 1 ? "" : "s"), "
            + "\(warnings) warning\(warnings == 1 ? "" : "s"), \(report.skipped.count) skipped"
        if errors > 0 {
            Console.error("understudy check: \(summary)")
            throw ExitCode(1)
        }
        Console.out("understudy check: \(summary)")
    }

    /// `--since OLD`: the stubs the new spec breaks that the old one accepted, with the new findings.
    private func compare(_ report: StubCheckReport, against oldFile: String, _ stubs: StubSet, newFile: String) throws {
        let old = StubChecker(spec: try load(oldFile), strictExtraFields: strictExtraFields).check(stubs)
        let broken = report.failingStubs.subtracting(old.failingStubs)
        for finding in report.errors where finding.stubID.map(broken.contains) == true {
            Console.out(finding.description)
        }
        let stillBroken = report.failingStubs.intersection(old.failingStubs).count
        let summary =
            "\(broken.count) stub\(broken.count == 1 ? "" : "s") accepted by \(oldFile) "
            + "\(broken.count == 1 ? "is" : "are") broken by \(newFile)\(broken.isEmpty ? "" : ": " + broken.sorted().joined(separator: ", "))"
            + " (\(stillBroken) already off-spec under both, \(report.checkedStubs) checked)"
        if !broken.isEmpty {
            Console.error("understudy check: \(summary)")
            throw ExitCode(1)
        }
        Console.out("understudy check: \(summary)")
    }
}
