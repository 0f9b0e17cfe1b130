import ArgumentParser

/// `understudy generate --openapi SPEC --out DIR`: stubs from a spec, written by `understudy-openapi`.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write stub files from an OpenAPI document: one stub per operation and declared status.",
        discussion:
            "Bodies are the spec's examples, or minimal values its schemas accept. The output passes `check --openapi`."
    )

    @Option(name: .customLong("openapi"), help: "The OpenAPI 3.0/3.1 document (YAML or JSON).")
    var openAPI: String

    @Option(name: .customLong("out"), help: "The directory to write stub files into (created if missing).")
    var out: String

    func run() throws {
        try OpenAPICompanion.exec(["generate", "--openapi", openAPI, "--out", out])
    }
}
