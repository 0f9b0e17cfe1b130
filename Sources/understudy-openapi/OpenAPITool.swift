import ArgumentParser

/// The root command of `understudy-openapi`; `understudy` runs it for its OpenAPI work.
struct OpenAPITool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "understudy-openapi",
        abstract:
            "Understudy's OpenAPI commands (run by `understudy check --openapi`, `generate` and `serve --openapi`).",
        subcommands: [CheckCommand.self, GenerateCommand.self, ContractCommand.self, OpenAPIValidateCommand.self]
    )
}
