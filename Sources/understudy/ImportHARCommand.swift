import ArgumentParser
import UnderstudyCore
import UnderstudyRecording

/// `understudy import-har FILE.har --out DIR`: a HAR's exchanges as native stubs.
struct ImportHARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-har",
        abstract: "Turn a HAR file (a browser's, a proxy's, or `understudy har`'s) into native stub files.",
        discussion: """
            Writes DIR/recorded.json (and large bodies under DIR/__files/): one stub per distinct request, \
            repeated requests as a response sequence in the order seen. The options are `understudy record`'s; \
            see docs/recording.md. Example: understudy import-har run.har --out stubs/recorded --redact-header Authorization
            """
    )

    @Argument(help: "The HAR 1.2 file.")
    var har: String

    @Option(help: ArgumentHelp("The directory to write the stubs to (created if needed).", valueName: "dir"))
    var out: String

    @Option(
        help: ArgumentHelp(
            "The API's base URL as the HAR's headers name it (https://api.example.com): it becomes {{server.url}}.",
            valueName: "url"))
    var upstream: String?

    @OptionGroup(title: "Recording")
    var recording: RecordingOptionsGroup

    func validate() throws {
        if har.isEmpty { throw ValidationError("give the HAR file to import") }
        if out.isEmpty { throw ValidationError("--out must name a directory") }
    }

    func run() throws {
        do {
            let imported = try HARImport.exchanges(fromFile: har)
            for reason in imported.skipped { Console.error("understudy import-har: skipped \(reason)") }
            let recorded = StubRecorder.record(imported.exchanges, options: recording.options(upstream: upstream))
            for warning in recorded.warnings { Console.error("understudy import-har: \(warning)") }
            let written = try recorded.write(to: out)
            Console.out(
                "understudy import-har: \(recorded.stubs.count) stubs from \(recorded.exchangeCount) exchanges: "
                    + written.map { "\(out)/\($0)" }.joined(separator: " "))
        } catch {
            Console.error("understudy import-har: \(har): \(error.message)")
            throw ExitCode(1)
        }
    }
}
