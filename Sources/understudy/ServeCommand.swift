#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import UnderstudyCore
import UnderstudyOpenAPIContract
import UnderstudyServer

/// `understudy serve`: loads stubs and serves them until SIGTERM/SIGINT.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        // Read only where `serve` is the root command (ServeFastPath): ArgumentParser then skips its
        // check for `--generate-completion-script`, which built and parsed two more commands on
        // every start (about 2.6 M instructions, issue 46). Such a request fails that parse and is
        // parsed again by `Understudy.main()`, which answers it. Under `Understudy` the root's
        // (nil) is the one read, so help and usage are unchanged.
        _superCommandName: "understudy",
        abstract: "Load stub files and serve them.",
        discussion: """
            Once it accepts connections it prints exactly one line to stdout:
              understudy listening on http://127.0.0.1:PORT
            (with --https: `... http://127.0.0.1:PORT https://127.0.0.1:PORT`).
            SIGTERM/SIGINT stop it gracefully (in-flight responses finish, the journal is flushed, \
            the pid and port files are removed, exit 0). SIGHUP reloads the stub files; if any is \
            invalid the old stubs keep serving and the errors go to stderr.

            It binds 127.0.0.1 by default; any other address needs --allow-remote. With an admin \
            token (--admin-token or the UNDERSTUDY_ADMIN_TOKEN environment variable) every \
            /__admin request needs `Authorization: Bearer TOKEN` and gets 401 without it.
            """
    )

    @Argument(help: "Stub files or directories (default: stubs).")
    var paths: [String] = []

    @Option(help: "The address to bind. Anything but loopback (127.x.x.x, ::1, localhost) needs --allow-remote.")
    var host: String = "127.0.0.1"

    @Flag(
        help:
            "Allow a --host that is not loopback, which makes the stubs, the journal and the admin API reachable from other machines (a warning is printed; consider --admin-token)."
    )
    var allowRemote = false

    @Option(
        help: ArgumentHelp(
            "Require `Authorization: Bearer TOKEN` on every /__admin request (others get 401). Printable ASCII, no spaces.",
            discussion:
                "The UNDERSTUDY_ADMIN_TOKEN environment variable sets it too, without showing it in the process list; this option wins.",
            valueName: "token"))
    var adminToken: String?

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

    @Option(
        help: ArgumentHelp(
            "How many bytes of each response body the journal records (longer ones are cut and marked truncated); 0 records none.",
            valueName: "bytes"))
    var journalBodyLimit: Int = EngineConfiguration.defaultJournalBodyLimit

    @Option(help: "The status for requests no stub matches.")
    var unmatchedStatus: Int = 404

    @Option(help: "The largest request body in bytes; larger requests get 413.")
    var maxBody: Int = ServerConfiguration.defaultMaxBodyBytes

    @Option(
        help: ArgumentHelp(
            "The most bytes of header fields, and of the request line; more get 431 (fields) or 414 (request line).",
            valueName: "bytes"))
    var maxHeaderBytes: Int = ServerConfiguration().maxHeaderBytes

    @Option(help: ArgumentHelp("The most header fields in a request; more get 431.", valueName: "count"))
    var maxHeaderCount: Int = ServerConfiguration().maxHeaderCount

    @Option(
        help: ArgumentHelp(
            "The most HTTP/2 streams a client may have open at once on a connection (SETTINGS_MAX_CONCURRENT_STREAMS).",
            valueName: "count"))
    var maxConcurrentStreams: Int = ServerConfiguration().maxConcurrentStreams

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may stay idle, or stall mid-request, before it is closed.", valueName: "seconds"))
    var idleTimeout: Int = ServerConfiguration().idleTimeoutSeconds

    @Option(
        help: ArgumentHelp(
            "Simultaneous connections to reserve open files for: the open-file limit is raised to cover them, with a warning if it cannot be.",
            discussion: "Without it the soft open-file limit is raised to the hard limit.",
            valueName: "count"))
    var maxConnections: Int?

    @Option(
        help: ArgumentHelp(
            "Sessions alive at once (POST /__admin/sessions); past it, creating one answers 503. 0 turns sessions off.",
            discussion:
                "Each idle session holds a listening socket and a few kilobytes; the default covers a parallel test run with room to spare.",
            valueName: "count"))
    var maxSessions: Int = SessionLimits.defaultMaxSessions

    @Option(
        help: ArgumentHelp(
            "Seconds without a request after which a session is deleted (its port closed); 0 keeps sessions until deleted.",
            discussion:
                "Reclaims the sessions of a test process that was killed before it could delete them. Fractions allowed.",
            valueName: "seconds"))
    var sessionIdleTimeout: Double = SessionLimits.defaultIdleTimeoutSeconds

    @Option(
        name: .customLong("openapi"),
        help: ArgumentHelp(
            "Check every request, and every stub's answer, against this OpenAPI 3.0/3.1 document (YAML or JSON).",
            discussion:
                "Violations are journaled (openapiViolations) and, by --openapi-mode, reported or refused. Sessions check alike.",
            valueName: "spec"))
    var openAPI: String?

    @Option(
        name: .customLong("openapi-mode"),
        help: ArgumentHelp(
            "With --openapi: warn (the default) sends violations in an Understudy-OpenAPI-Violation header; fail refuses them (400 for a request, 500 for a stub's answer).",
            valueName: "mode"))
    var openAPIMode: OpenAPIMode?

    @OptionGroup(title: "HTTPS")
    var tls: TLSOptions

    @OptionGroup(title: "WireMock")
    var wireMock: WireMockFlags

    @Option(
        help: ArgumentHelp(
            "A PEM file of CA certificates that proxying stubs (`proxy`) trust for HTTPS upstreams, instead of the system's.",
            discussion: "For an upstream with a throwaway or private CA; the system's trust store is left as it is.",
            valueName: "file"))
    var proxyCa: String?

    @Option(
        name: .customLong("webhook-allow"),
        help: ArgumentHelp(
            "A host (name or address) webhooks may be sent to besides loopback; repeat for more.",
            discussion:
                "Without it, a stub whose webhook `url` names another host fails to load, and a templated URL that renders to one is refused and journaled (docs/webhooks.md).",
            valueName: "host"))
    var webhookAllow: [String] = []

    @Flag(
        help: ArgumentHelp(
            "Run in the background: return once the server is ready (exit 0), or fail with its error.",
            discussion:
                "The daemon keeps none of the caller's descriptors: after the readiness line its output goes to --log-file, or nowhere."
        ))
    var detach = false

    @Option(
        help: ArgumentHelp(
            "Seed for random delays (`delayMs` distributions) and templates' `random.*` values, so runs repeat; default: a random seed.",
            valueName: "n"))
    var seed: UInt64?

    @Option(
        help: ArgumentHelp(
            "Once ready, write the access log and later messages (reload errors, warnings) to this file, appending, instead of stderr.",
            valueName: "file"))
    var logFile: String?

    @Flag(help: "Do not write the access log (one line per request on stderr or --log-file).")
    var quiet = false

    @Flag(
        name: .customLong("exit-on-stdin-eof"),
        help:
            "Stop (as on SIGTERM) when standard input reaches end of file, so a test process that gives the daemon a pipe as stdin takes it along when it dies, even by SIGKILL."
    )
    var exitOnStdinEOF = false

    /// Set on the background copy that `--detach` starts.
    @Flag(help: .hidden)
    var detachedChild = false

    func validate() throws {
        if exitOnStdinEOF && detach {
            throw ValidationError(
                "--exit-on-stdin-eof cannot be combined with --detach (a detached daemon has no stdin)")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (100...599).contains(unmatchedStatus) else {
            throw ValidationError("--unmatched-status must be between 100 and 599")
        }
        guard maxBody >= 0 else { throw ValidationError("--max-body must not be negative") }
        guard journalLimit >= 1 else { throw ValidationError("--journal-limit must be at least 1") }
        guard journalBodyLimit >= 0 else { throw ValidationError("--journal-body-limit must not be negative") }
        if let logFile, logFile.isEmpty { throw ValidationError("--log-file must name a file") }
        guard (256...(16 << 20)).contains(maxHeaderBytes) else {
            throw ValidationError("--max-header-bytes must be between 256 and \(16 << 20)")
        }
        guard (1...100_000).contains(maxHeaderCount) else {
            throw ValidationError("--max-header-count must be between 1 and 100000")
        }
        guard (1...10_000).contains(maxConcurrentStreams) else {
            throw ValidationError("--max-concurrent-streams must be between 1 and 10000")
        }
        guard (1...86_400).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout must be between 1 and 86400 seconds")
        }
        guard (0...100_000).contains(maxSessions) else {
            throw ValidationError("--max-sessions must be between 0 and 100000")
        }
        guard sessionIdleTimeout.isFinite, (0...604_800).contains(sessionIdleTimeout) else {
            throw ValidationError("--session-idle-timeout must be between 0 (never) and 604800 seconds (a week)")
        }
        if let maxConnections, !(1...1_000_000).contains(maxConnections) {
            throw ValidationError("--max-connections must be between 1 and 1000000")
        }
        if !BindAddress.isLoopback(host) && !allowRemote {
            throw ValidationError(
                """
                --host \(host) is not a loopback address: the stubs, the journal and the admin API would be reachable \
                from other machines. Pass --allow-remote to bind it anyway (and consider --admin-token), or use 127.0.0.1.
                """)
        }
        if openAPIMode != nil && openAPI == nil {
            throw ValidationError("--openapi-mode needs --openapi SPEC (the document to check against)")
        }
        if let adminToken {
            if let problem = Self.tokenProblem(adminToken) { throw ValidationError("--admin-token \(problem)") }
        } else if let token = Self.environmentToken, let problem = Self.tokenProblem(token) {
            throw ValidationError("\(Self.tokenVariable) \(problem)")
        }
    }

    /// The environment variable that sets the admin token.
    static let tokenVariable = "UNDERSTUDY_ADMIN_TOKEN"

    /// `UNDERSTUDY_ADMIN_TOKEN`, when set and not empty.
    private static var environmentToken: String? {
        guard let value = getenv(tokenVariable) else { return nil }
        let token = String(cString: value)
        return token.isEmpty ? nil : token
    }

    /// Why `token` cannot be an admin token (it travels in an HTTP header), or nil.
    private static func tokenProblem(_ token: String) -> String? {
        if token.isEmpty { return "must not be empty" }
        if !token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            return "must be printable ASCII without spaces (it is sent in an Authorization header)"
        }
        return nil
    }

    /// The serve-time checker for `--openapi`: `understudy-openapi contract` reads and judges the spec
    /// and hands over its contract as JSON. A spec that cannot be used stops the start with its
    /// located errors (written to stderr by the companion).
    private func contractChecker(_ specFile: String) throws -> OpenAPIServeChecker {
        let (status, output) = try OpenAPICompanion.run(["contract", "--openapi", specFile])
        guard status == 0, let value = JSONValue.parse(output), let contract = OpenAPIContract(json: value) else {
            Console.error("understudy: not serving: the OpenAPI document \(specFile) cannot be used")
            throw ExitCode(1)
        }
        let mode = openAPIMode ?? .warn
        Console.error(
            "understudy: checking requests and stub answers against \(specFile) (OpenAPI \(contract.version), "
                + "\(contract.operations.count) operations; --openapi-mode \(mode.rawValue))")
        return OpenAPIServeChecker(contract: contract, refusesViolations: mode == .fail)
    }

    /// `--proxy-ca FILE` made absolute and checked readable now (curl reads it only when a stub
    /// first proxies, long after a typo could be reported); exits 1 saying why otherwise.
    static func resolvedProxyCA(_ path: String) throws -> String {
        guard let resolved = realpath(path, nil) else {
            Console.error("understudy: --proxy-ca \(path): \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        defer { free(resolved) }
        guard access(resolved, R_OK) == 0 else {
            Console.error("understudy: --proxy-ca \(path): \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        return String(cString: resolved)
    }

    func run() throws {
        if detach && !detachedChild {
            throw ExitCode(Detacher.startInBackground())
        }
        if detachedChild {
            setsid()  // leave the caller's session, so its terminal's signals do not reach the daemon
        }
        let stubPaths = DefaultStubPaths.paths(paths)
        let token = adminToken ?? Self.environmentToken
        let descriptors = DescriptorLimit.raise(toServe: maxConnections)
        if let maxConnections, let message = DescriptorLimit.shortfallMessage(descriptors, connections: maxConnections)
        {
            Console.error(message)
        }

        var journalWriter: JournalFileWriter?
        if let journal {
            do {
                journalWriter = try JournalFileWriter(path: journal)
            } catch {
                Console.error("understudy: cannot open journal \(journal): \(error.message)")
                throw ExitCode(1)
            }
        }
        // Certificates before the engine, so the admin API can serve the CA.
        var tlsContext: TLSContext?
        if let settings = tls.settings {
            do {
                tlsContext = try TLSContext(settings: settings)
            } catch {
                Console.error("understudy: HTTPS: \(error)")
                throw ExitCode(1)
            }
        }
        // Opened before start-up completes, so a log file that cannot be written is a start-up error.
        var logDescriptor: Int32?
        if let logFile {
            let fd = open(logFile, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                Console.error("understudy: cannot open log file \(logFile): \(String(cString: strerror(errno)))")
                throw ExitCode(1)
            }
            logDescriptor = fd
        }
        // Before the stubs load: a literal webhook URL is checked against it then.
        WebhookTargets.allow(webhookAllow)
        var engineConfiguration = EngineConfiguration(
            unmatchedStatus: unmatchedStatus, journalLimit: journalLimit,
            journalSink: journalWriter, adminToken: token, seed: seed,
            journalBodyLimit: journalBodyLimit)
        engineConfiguration.certificateAuthorityPEM = tlsContext?.certificateAuthorityPEM
        if let openAPI {
            engineConfiguration.contract = try contractChecker(openAPI)
        }
        let responder: UnderstudyResponder
        do {
            responder = try UnderstudyResponder(
                stubPaths: stubPaths, loadOptions: wireMock.loadOptions, configuration: engineConfiguration)
        } catch {
            let error = DefaultStubPaths.explained(error, given: paths, command: "serve")
            for problem in error.errors { Console.error(problem.description) }
            Console.error(
                "understudy: not serving: \(error.errors.count) error\(error.errors.count == 1 ? "" : "s") in the stub files"
            )
            throw ExitCode(1)
        }
        for warning in responder.loadWarnings { Console.error(warning.description) }

        // Before the server exists, so the server hosts the sessions on its loop.
        let sessions = responder.enableSessions(
            SessionLimits(maxSessions: maxSessions, idleTimeoutSeconds: sessionIdleTimeout))
        sessions.log = { Console.error($0) }

        var serverConfiguration = ServerConfiguration(
            host: host, port: port, maxBodyBytes: maxBody,
            maxHeaderBytes: maxHeaderBytes, idleTimeoutSeconds: idleTimeout,
            maxHeaderCount: maxHeaderCount, maxConcurrentStreams: maxConcurrentStreams)
        if let proxyCa { serverConfiguration.proxyCAFile = try Self.resolvedProxyCA(proxyCa) }
        let server: HTTPServer
        do {
            server = try HTTPServer(
                configuration: serverConfiguration,
                responder: responder)
        } catch {
            Console.error("understudy: \(error)")
            throw ExitCode(1)
        }
        if let settings = tls.settings, let tlsContext {
            do {
                try server.openHTTPS(settings, tls: tlsContext)
            } catch {
                Console.error("understudy: HTTPS: \(error)")
                throw ExitCode(1)
            }
        }
        if !quiet {
            server.accessLog = { Console.error($0.line) }
        }

        server.handleSignals {
            switch responder.reload() {
            case .success(let count):
                for warning in responder.loadWarnings { Console.error(warning.description) }
                Console.error("understudy: reloaded \(count) stubs from \(stubPaths.joined(separator: " "))")
            case .failure(let failure):
                for problem in failure.errors { Console.error(problem.description) }
                Console.error("understudy: reload failed; still serving the previous \(responder.stubCount) stubs")
            }
        }
        do {
            if let pidFile { try StateFiles.writeAtomically("\(getpid())\n", to: pidFile) }
            if let portFile { try StateFiles.writeAtomically("\(server.port)\n", to: portFile) }
            if let file = tls.httpsPortFile, let port = server.httpsPort {
                try StateFiles.writeAtomically("\(port)\n", to: file)
            }
            if let file = tls.tlsCaFile, let pem = tlsContext?.certificateAuthorityPEM {
                try StateFiles.writeAtomically(pem, to: file)
            }
        } catch {
            Console.error("understudy: \(error)")
            StateFiles.remove(pidFile)
            StateFiles.remove(portFile)
            StateFiles.remove(tls.httpsPortFile)
            throw ExitCode(1)
        }
        if !BindAddress.isLoopback(host) {
            let admin =
                token == nil
                ? "the admin API has no authentication (pass --admin-token)"
                : "the admin API requires the admin token"
            Console.error(
                "understudy: warning: listening on \(host) (--allow-remote), reachable from other machines; stubs and the journal are open to them and \(admin)"
            )
        }
        if exitOnStdinEOF { StandardInputWatcher.stopAtEndOfInput(server.controller) }
        // From here on stderr is the log file, or (detached, without one) /dev/null: a detached
        // daemon lets go of the caller's stderr before the readiness line lets the caller go on.
        if let logDescriptor {
            Detacher.redirect(2, to: logDescriptor)
        } else if detachedChild {
            Detacher.redirect(2, toDevice: "/dev/null")
        }
        // One line; the HTTPS URL after the plain one, so readers of the first URL keep working.
        Console.out("understudy listening on \(server.url)" + (server.httpsURL.map { " \($0)" } ?? ""))
        if detachedChild {
            Detacher.redirect(1, toDevice: "/dev/null")
        }

        server.run()

        journalWriter?.close()
        StateFiles.remove(portFile)
        StateFiles.remove(tls.httpsPortFile)
        StateFiles.remove(pidFile)
    }
}

/// `--openapi-mode`: what a violation of the OpenAPI document does.
enum OpenAPIMode: String, ExpressibleByArgument, CaseIterable {
    /// Journaled and sent as an `Understudy-OpenAPI-Violation` header; the answer is unchanged.
    case warn
    /// Refused: a 400 for the request, a 500 for a stub's answer, saying why.
    case fail
}
