#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import UnderstudyCore
import UnderstudyRecording

/// `understudy har JOURNAL.jsonl`: a `--journal` file as HAR 1.2 on standard output.
struct HARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Convert a journal file (--journal, JSON Lines) to HAR 1.2 on standard output.",
        discussion: "Example: understudy har run/journal.jsonl > run.har. Opens in browser devtools and HAR viewers."
    )

    @Argument(help: "The JSON Lines journal written by `understudy serve --journal` (`-` for standard input).")
    var journal: String

    @Option(name: .long, help: "Host for the URL of requests that sent no Host header.")
    var defaultHost: String = "127.0.0.1"

    func validate() throws {
        if journal.isEmpty { throw ValidationError("give the journal file to convert") }
    }

    func run() throws {
        do {
            let bytes = try HARExport.har(fromJournalFile: journal, defaultHost: defaultHost)
            Console.out(String(decoding: bytes, as: UTF8.self))
        } catch {
            Console.error("understudy har: \(journal): \(error.description)")
            throw ExitCode(1)
        }
    }
}
