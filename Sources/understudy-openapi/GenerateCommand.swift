import ArgumentParser
import Foundation
import UnderstudyOpenAPI

/// `understudy generate --openapi SPEC --out DIR`: stubs from a spec, one per operation and status.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write stub files from an OpenAPI document: one stub per operation and declared status.",
        discussion:
            "Each operation's lowest 2XX answers the plain request; every other status answers a request with "
            + "`Prefer: code=STATUS`. Bodies are the spec's examples when valid, else values generated to satisfy "
            + "the schema (pattern, format, lengths, bounds); a constraint that cannot be met is a warning naming "
            + "its spec pointer. The output passes `check --openapi`."
    )

    @Option(name: .customLong("openapi"), help: "The OpenAPI 3.0/3.1 document (YAML or JSON).")
    var openAPI: String

    @Option(name: .customLong("out"), help: "The directory to write stub files into (created if missing).")
    var out: String

    func run() throws {
        let spec: OpenAPISpec
        do {
            spec = try OpenAPISpec.load(openAPI)
        } catch {
            for finding in error.findings { ToolOutput.out(finding.description) }
            ToolOutput.error("understudy generate: the OpenAPI document \(openAPI) cannot be used; nothing was written")
            throw ExitCode(1)
        }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let output = StubGenerator(spec: spec).output()
        // What could not be generated as the spec asks, each with the spec pointer of its constraint.
        for warning in output.warnings { ToolOutput.error(warning.description) }
        let files = output.files
        for file in files {
            try Data(file.text.utf8).write(to: URL(fileURLWithPath: out).appendingPathComponent(file.name))
        }
        let count = files.map(\.stubs).reduce(0, +)
        let warnings = output.warnings.isEmpty ? "" : " (\(output.warnings.count) warnings)"
        ToolOutput.out(
            "understudy generate: \(count) stubs in \(files.count) files in \(out) from \(openAPI)\(warnings)")
    }
}
