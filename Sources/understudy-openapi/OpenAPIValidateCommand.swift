import ArgumentParser
import UnderstudyOpenAPI

/// `understudy openapi-validate` (hidden): validates a batch of instances against schemas of a spec,
/// one JSON line in (`{"schema": "#/components/schemas/Pet", "instance": …}`), one line out
/// (`true`/`false`). The differential test against Python's `jsonschema` drives it: one process for
/// thousands of instances.
struct OpenAPIValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi-validate",
        abstract: "Validate JSON lines of {schema, instance} from stdin against a spec's schemas (for tests).",
        shouldDisplay: false
    )

    @Option(name: .customLong("openapi"), help: "The OpenAPI document whose schemas the lines name.")
    var openAPI: String

    func run() throws {
        let spec: OpenAPISpec
        do {
            spec = try OpenAPISpec.load(openAPI)
        } catch {
            for finding in error.findings { ToolOutput.out(finding.description) }
            throw ExitCode(1)
        }
        let batch = SchemaBatch(spec: spec)
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            ToolOutput.out(batch.validate(line: line))
        }
    }
}
