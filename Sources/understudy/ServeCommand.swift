#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import UnderstudyCore
import UnderstudyServer

/// `understudy serve`: loads stubs and serves them until SIGTERM/SIGINT.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Load stub files and serve them.",
        discussion: """
            Once it accepts connections it prints exactly one line to stdout:
              understudy listening on http://127.0.0.1:PORT
            SIGTERM/SIGINT stop it gracefully (in-flight responses finish, the journal is flushed, \
            the pid and port files are removed, exit 0). SIGHUP reloads the stub files; if any is \
            invalid the old stubs keep serving and the errors go to stderr.
            """
    )

    @Argument(help: "Stub files or directories (default: stubs).")
    var paths: [String] = []

    @Option(help: "The address to bind. Anything but loopback exposes the server to the network.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to bind; 0 picks a free one (see the readiness line or --port-file).")
    var port: Int = 0

    @Option(help: "Write the bound port here (atomically) once listening; removed on exit.")
    var portFile: String?

    @Option(help: "Write the process id here once listening; removed on exit.")
    var pidFile: String?

    @Option(help: "Append every journal entry to this JSON Lines file, before its response is sent.")
    var journal: String?

    @Option(help: "How many journal entries to keep in memory (older ones are dropped and counted).")
    var journalLimit: Int = 100_000

    @Option(help: "The status for requests no stub matches.")
    var unmatchedStatus: Int = 404

    @Option(help: "The largest request body in bytes; larger requests get 413.")
    var maxBody: Int = ServerConfiguration.defaultMaxBodyBytes

    @Flag(help: "Run in the background: return once the server is ready (exit 0), or fail with its error.")
    var detach = false

    @Flag(help: "Do not write the access log (one line per request on stderr).")
    var quiet = false

    /// Set on the background copy that `--detach` starts.
    @Flag(help: .hidden)
    var detachedChild = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (100...599).contains(unmatchedStatus) else { throw ValidationError("--unmatched-status must be between 100 and 599") }
        guard maxBody >= 0 else { throw ValidationError("--max-body must not be negative") }
        guard journalLimit >= 1 else { throw ValidationError("--journal-limit must be at least 1") }
    }

    func run() throws {
        if detach && !detachedChild {
            throw ExitCode(Detacher.startInBackground())
        }
        if detachedChild {
            setsid()  // leave the caller's session, so its terminal's signals do not reach the daemon
        }
        let stubPaths = paths.isEmpty ? ["stubs"] : paths

        var journalWriter: JournalFileWriter?
        if let journal {
            do {
                journalWriter = try JournalFileWriter(path: journal)
            } catch {
                Console.error("understudy: cannot open journal \(journal): \(error.message)")
                throw ExitCode(1)
            }
        }
        let engineConfiguration = EngineConfiguration(unmatchedStatus: unmatchedStatus, journalLimit: journalLimit,
                                                      journalSink: journalWriter)
        let responder: UnderstudyResponder
        do {
            responder = try UnderstudyResponder(stubPaths: stubPaths, configuration: engineConfiguration)
        } catch {
            for problem in error.errors { Console.error(problem.description) }
            Console.error("understudy: not serving: \(error.errors.count) error\(error.errors.count == 1 ? "" : "s") in the stub files")
            throw ExitCode(1)
        }

        let server: HTTPServer
        do {
            server = try HTTPServer(
                configuration: ServerConfiguration(host: host, port: port, maxBodyBytes: maxBody),
                responder: responder)
        } catch {
            Console.error("understudy: \(error)")
            throw ExitCode(1)
        }
        if !quiet {
            server.accessLog = { Console.error($0.line) }
        }
        server.handleSignals {
            switch responder.reload() {
            case .success(let count):
                Console.error("understudy: reloaded \(count) stubs from \(stubPaths.joined(separator: " "))")
            case .failure(let failure):
                for problem in failure.errors { Console.error(problem.description) }
                Console.error("understudy: reload failed; still serving the previous \(responder.stubCount) stubs")
            }
        }
        do {
            if let pidFile { try StateFiles.writeAtomically("\(getpid())\n", to: pidFile) }
            if let portFile { try StateFiles.writeAtomically("\(server.port)\n", to: portFile) }
        } catch {
            Console.error("understudy: \(error)")
            StateFiles.remove(pidFile)
            throw ExitCode(1)
        }
        if !server.configuration.isLoopback {
            Console.error("understudy: warning: listening on \(host), reachable from other machines; stubs and the admin API have no authentication")
        }
        Console.out("understudy listening on \(server.url)")
        if detachedChild {
            Detacher.releaseStandardOutput()
        }

        server.run()

        journalWriter?.close()
        StateFiles.remove(portFile)
        StateFiles.remove(pidFile)
    }
}
