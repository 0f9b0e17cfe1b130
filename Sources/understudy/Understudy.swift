import ArgumentParser

/// The root command; the work is in its subcommands.
struct Understudy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "understudy",
        abstract: "A local HTTP stub server for testing clients.",
        subcommands: [
            ServeCommand.self, CheckCommand.self, GenerateCommand.self, StopCommand.self, ConvertWireMockCommand.self,
            HARCommand.self, ImportHARCommand.self, RecordCommand.self,
            OpenAPIValidateCommand.self,
        ]
    )
}
