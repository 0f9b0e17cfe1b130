import ArgumentParser
import UnderstudyJSON
import UnderstudyOpenAPI

/// `understudy-openapi contract --openapi SPEC`: loads and judges the spec (OpenAPIKit, YAML, `$ref`s
/// across files) and prints its ``OpenAPIContract`` as one JSON document, which `understudy serve
/// --openapi` reads with no OpenAPI library of its own.
struct ContractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contract",
        abstract: "Print the OpenAPI document's contract (its documents, $refs loaded) as JSON, for serve --openapi."
    )

    @Option(name: .customLong("openapi"), help: "The OpenAPI 3.0/3.1 document (YAML or JSON).")
    var openAPI: String

    func run() throws {
        let spec: OpenAPISpec
        do {
            spec = try OpenAPISpec.load(openAPI)
        } catch {
            // Located errors on stderr: stdout carries only the contract.
            for finding in error.findings { ToolOutput.error(finding.description) }
            throw ExitCode(1)
        }
        ToolOutput.out(spec.contract.json.jsonText)
    }
}
