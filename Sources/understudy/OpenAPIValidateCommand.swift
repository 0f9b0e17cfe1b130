import ArgumentParser

/// `understudy openapi-validate` (hidden): JSON lines of `{schema, instance}` validated against a
/// spec's schemas, by `understudy-openapi` (the differential test against Python's `jsonschema`).
struct OpenAPIValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi-validate",
        abstract: "Validate JSON lines of {schema, instance} from stdin against a spec's schemas (for tests).",
        shouldDisplay: false
    )

    @Option(name: .customLong("openapi"), help: "The OpenAPI document whose schemas the lines name.")
    var openAPI: String

    func run() throws {
        try OpenAPICompanion.exec(["openapi-validate", "--openapi", openAPI])
    }
}
