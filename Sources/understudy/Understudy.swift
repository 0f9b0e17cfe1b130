import ArgumentParser

/// The root command; the work is in its subcommands.
struct Understudy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "understudy",
        abstract: "A local HTTP stub server for testing clients.",
        // `understudy --version`: the version and commit scripts/release stamps into the binary.
        version: BuildStamp.description,
        subcommands: [
            ServeCommand.self, CheckCommand.self, GenerateCommand.self, StopCommand.self, ConvertWireMockCommand.self,
            HARCommand.self, ImportHARCommand.self, RecordCommand.self,
            OpenAPIValidateCommand.self,
        ]
    )
}
