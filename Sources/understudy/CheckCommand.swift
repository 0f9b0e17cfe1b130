import ArgumentParser
import UnderstudyCore

/// `understudy check`: validates stub files without serving them.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate stub files; print each error as file:line:column: error: message.",
        discussion: "Exits 0 when every file is valid, 1 otherwise. Errors go to stdout, one per line, in the format editors and CI annotate."
    )

    @Argument(help: "Stub files or directories (default: stubs).")
    var paths: [String] = []

    func run() throws {
        let given = paths
        let paths = DefaultStubPaths.paths(given)
        do {
            let stubs = try StubLoader.load(paths: paths)
            let responses = stubs.stubs.flatMap(\.responses)
            let templated = responses.filter { $0.template != nil }.count
            let streamed = responses.filter { $0.streaming != nil }.count
            // Templates are compiled and their names checked while loading, so OK covers them too.
            let dynamic = templated + streamed == 0 ? "" : " (\(templated) templated, \(streamed) streamed response\(streamed == 1 ? "" : "s"))"
            Console.out("understudy check: \(stubs.count) stubs OK in \(paths.joined(separator: " "))\(dynamic)")
        } catch {
            let error = DefaultStubPaths.explained(error, given: given, command: "check")
            for problem in error.errors {
                Console.out(problem.description)
            }
            Console.error("understudy check: \(error.errors.count) error\(error.errors.count == 1 ? "" : "s")")
            throw ExitCode(1)
        }
    }
}
