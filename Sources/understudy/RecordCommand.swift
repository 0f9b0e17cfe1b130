#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import UnderstudyCore
import UnderstudyRecording
import UnderstudyServer

/// `understudy record --to URL --out DIR`: serves a catch-all proxying stub to the API and, when
/// stopped, writes what passed through as native stubs (``StubRecorder``).
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Proxy to a real API and, when stopped, write what passed through as native stub files.",
        discussion: """
            Prints the readiness line `understudy listening on http://127.0.0.1:PORT`; point the client there. \
            Every request is forwarded to --to and journaled whole. On SIGTERM/SIGINT, or POST \
            /__admin/recordings/stop, the exchanges are written to DIR/recorded.json (large bodies under \
            DIR/__files/) and the command exits. With --session it records inside a session of a running \
            daemon (--admin-url, or UNDERSTUDY_URL) instead: the readiness line names the session's URL and id, \
            and on SIGTERM/SIGINT, or POST /__admin/recordings/stop on the session, the daemon writes DIR from \
            the session's journal and the session is deleted. See docs/recording.md.
            """
    )

    @Option(help: ArgumentHelp("The API to record (http:// or https://, optionally with a path).", valueName: "url"))
    var to: String

    @Option(help: ArgumentHelp("The directory to write the stubs to (created if needed).", valueName: "dir"))
    var out: String

    @Option(
        help: ArgumentHelp(
            "A PEM file of CA certificates the recorder trusts for an HTTPS --to, instead of the system's.",
            valueName: "file"))
    var proxyCa: String?

    @Option(help: "The loopback address to bind.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to bind; 0 picks a free one (see the readiness line or --port-file).")
    var port: Int = 0

    @Option(help: "Write the bound port here (atomically) once listening; removed on exit.")
    var portFile: String?

    @Option(help: "Write the process id here once listening; removed on exit.")
    var pidFile: String?

    @Flag(help: "Do not write the access log (one line per request on stderr).")
    var quiet = false

    @Flag(
        help: ArgumentHelp(
            "Run in the background: return once the proxy is ready; stop it with `understudy stop --pid-file F` (or POST /__admin/recordings/stop) to write the stubs.",
            discussion: "Detached, its messages go nowhere: the files written are the result."))
    var detach = false

    /// Set on the background copy that `--detach` starts.
    @Flag(help: .hidden)
    var detachedChild = false

    @Flag(
        help: ArgumentHelp(
            "Record inside a new session of a running daemon (--admin-url) instead of serving a proxy of its own.",
            discussion: "The session's port is the one to point the client at; the daemon's own port is untouched."))
    var session = false

    @Option(
        help: ArgumentHelp(
            "With --session: the running daemon's URL (default: $UNDERSTUDY_URL; $UNDERSTUDY_ADMIN_TOKEN is sent).",
            valueName: "url"))
    var adminUrl: String?

    @OptionGroup(title: "Recording")
    var recording: RecordingOptionsGroup

    func validate() throws {
        guard to.hasPrefix("http://") || to.hasPrefix("https://") else {
            throw ValidationError("--to must be an http:// or https:// URL (the API to record)")
        }
        if out.isEmpty { throw ValidationError("--out must name a directory") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if session {
            // The session's port and proxy are the daemon's: what would configure our own has no place.
            if port != 0 || host != "127.0.0.1" {
                throw ValidationError(
                    "--port and --host make a proxy of record's own; with --session the daemon picks the session's port"
                )
            }
            if proxyCa != nil {
                throw ValidationError("with --session the daemon proxies: start it with --proxy-ca instead")
            }
        } else if adminUrl != nil {
            throw ValidationError("--admin-url names the daemon that --session records in; add --session")
        }
        guard BindAddress.isLoopback(host) else {
            throw ValidationError("--host \(host) is not a loopback address; record binds loopback only")
        }
    }

    /// The one stub a recording serves: everything, forwarded.
    var proxyStubValue: JSONValue {
        [
            "id": "record-proxy", "description": .string("understudy record: every request forwarded to \(to)"),
            "request": [:], "responses": [["proxy": ["to": .string(to)]]],
        ]
    }

    var proxyStub: [UInt8] { JSONValue.object([JSONMember("stubs", [proxyStubValue])]).jsonBytes }

    func run() throws {
        if detach && !detachedChild {
            throw ExitCode(Detacher.startInBackground())
        }
        if detachedChild {
            setsid()  // leave the caller's session, so its terminal's signals do not reach the recording
        }
        if session {
            try recordInSession()
            return
        }
        let stopper = Stopper()
        let options = recording.options(upstream: to)
        var engineConfiguration = EngineConfiguration(journalBodyLimit: Int.max)
        engineConfiguration.recording = RecordingPlan(out: out, options: options, stopped: { stopper.stop() })
        let stubs: StubSet
        do {
            stubs = try StubLoader.parse(bytes: proxyStub, file: "<record>", root: nil)
        } catch {
            for problem in error.errors { Console.error(problem.description) }
            Console.error("understudy record: this build cannot proxy")
            throw ExitCode(1)
        }
        let responder = UnderstudyResponder(stubs: stubs, configuration: engineConfiguration)
        var configuration = ServerConfiguration(host: host, port: port)
        configuration.proxyCAFile = try proxyCa.map(ServeCommand.resolvedProxyCA)
        let server: HTTPServer
        do {
            server = try HTTPServer(configuration: configuration, responder: responder)
        } catch {
            Console.error("understudy record: \(error)")
            throw ExitCode(1)
        }
        stopper.controller = server.controller
        if !quiet { server.accessLog = { Console.error($0.line) } }
        server.handleSignals { Console.error("understudy record: nothing to reload (SIGHUP ignored)") }
        do {
            if let pidFile { try StateFiles.writeAtomically("\(getpid())\n", to: pidFile) }
            if let portFile { try StateFiles.writeAtomically("\(server.port)\n", to: portFile) }
        } catch {
            Console.error("understudy record: \(error)")
            StateFiles.remove(pidFile)
            StateFiles.remove(portFile)
            throw ExitCode(1)
        }
        if detachedChild { Detacher.redirect(2, toDevice: "/dev/null") }
        Console.out("understudy listening on \(server.url)")
        if detachedChild { Detacher.redirect(1, toDevice: "/dev/null") }
        server.run()
        // The pid file goes last: `understudy stop` returns once it is gone, and the stubs are written by then.
        defer {
            StateFiles.remove(portFile)
            StateFiles.remove(pidFile)
        }
        try write(responder.engine, options: options)
    }

    /// Writes what the journal holds (again, after a stop route already did: the same stubs, or more).
    private func write(_ engine: StubEngine, options: RecordingOptions) throws {
        do {
            let recorded = try engine.recordedStubs(options: options)
            guard recorded.exchangeCount > 0 else {
                Console.error(
                    "understudy record: nothing was recorded (no request was answered); \(out) left as it was")
                return
            }
            for warning in recorded.warnings { Console.error("understudy record: \(warning)") }
            let written = try recorded.write(to: out)
            Console.error(
                "understudy record: \(recorded.stubs.count) stubs from \(recorded.exchangeCount) exchanges: "
                    + written.map { "\(out)/\($0)" }.joined(separator: " "))
        } catch {
            Console.error("understudy record: \(error.message)")
            throw ExitCode(1)
        }
    }
}

/// Stops the recording's server from `POST /__admin/recordings/stop` (which runs on its loop).
private final class Stopper: @unchecked Sendable {
    var controller: ServerController?

    func stop() { controller?.stop() }
}
