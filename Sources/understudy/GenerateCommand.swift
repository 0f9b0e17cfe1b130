import ArgumentParser

/// `understudy generate --openapi SPEC --out DIR`: stubs from a spec, written by `understudy-openapi`.
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
        try OpenAPICompanion.exec(["generate", "--openapi", openAPI, "--out", out])
    }
}
