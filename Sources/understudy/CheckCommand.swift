import ArgumentParser
import UnderstudyCore

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
            // The stubs load; understudy-openapi (OpenAPIKit, Yams) checks them against the spec.
            var arguments = ["check", "--openapi", openAPI]
            if strictExtraFields { arguments.append("--strict-extra-fields") }
            if let since { arguments += ["--since", since] }
            try OpenAPICompanion.exec(arguments + ["--"] + paths)
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
}
