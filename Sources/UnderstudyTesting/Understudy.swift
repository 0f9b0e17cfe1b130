import Foundation
// Tests build stubs and read admin answers with the package's one JSON value type.
@_exported import UnderstudyJSON
// Stubs are built with the stub-format module's builders (`Stub.get(...)`, `StubResponse`, matchers).
@_exported import UnderstudyStubFormat

/// A handle on an `understudy` daemon for a test suite: one it started (`launch`), one already
/// running (`attach`), the process-wide one (`shared()`), or a session on a daemon (`session`) —
/// a private world with its own port, stubs, state and journal. Every helper works on any of them.
///
/// ```swift
/// let understudy = try await Understudy.launch(stubs: ["stubs/restnetworking/readme-posts.json"])
/// defer { understudy.stopWithoutWaiting() }   // or `await understudy.stop()` at the end
/// // … point the client at understudy.baseURL, then:
/// let requests = try await understudy.admin.requests(path: "/rest/readme/posts")
/// ```
public final class Understudy: Sendable {
    /// Where the daemon (or the session) listens, e.g. `http://127.0.0.1:50123`.
    public let baseURL: URL
    /// Typed access to the admin API (scoped to the session, for a session).
    public let admin: UnderstudyAdmin
    let backing: Backing
    /// Unmatched requests already reported, so each fails a test once (see
    /// `assertNoUnmatchedRequests`).
    let reportedUnmatched = ReportedRequests()

    /// What stands behind a handle.
    enum Backing: Sendable {
        /// A daemon this handle started and stops.
        case launched(DaemonProcess)
        /// Someone else's daemon: never stopped from here.
        case attached
        /// The process-wide daemon (`shared()`): it lives as long as the test process.
        case shared(DaemonProcess?)
        /// A session on `lease.daemon`, deleted when stopped or released.
        case session(SessionLease)
    }

    /// The environment variable an `understudy` daemon reads its admin token from.
    public static let adminTokenVariable = "UNDERSTUDY_ADMIN_TOKEN"

    init(baseURL: URL, backing: Backing, adminToken: String?) {
        self.baseURL = baseURL
        if case let .session(lease) = backing {
            self.admin = UnderstudyAdmin(baseURL: baseURL, adminToken: adminToken, session: lease)
        } else {
            self.admin = UnderstudyAdmin(baseURL: baseURL, adminToken: adminToken)
        }
        self.backing = backing
    }

    deinit {
        switch backing {
        case let .launched(process): process.terminateNow()
        case let .session(lease): lease.deleteWithoutWaiting()
        case .attached, .shared: break
        }
    }

    /// Starts `understudy serve <stubs> --port 0 --quiet --exit-on-stdin-eof` and waits for its
    /// readiness line. The daemon stops when the handle does, when it is released, and when this
    /// process ends in any way (SIGKILL included: it watches a stdin pipe only this process holds).
    ///
    /// - Parameters:
    ///   - stubs: stub files or directories, relative to the current directory or absolute; `[]`
    ///     starts a daemon with no stubs (add them with `install` or `admin.addStubs`).
    ///   - journalFile: also write the journal as JSON Lines to this file.
    ///   - unmatchedStatus: the status for requests no stub matches (the daemon's default is 404).
    ///   - adminToken: start the daemon with this admin token (passed in `UNDERSTUDY_ADMIN_TOKEN`, so
    ///     it never shows in the process list) and send it with every admin call. Without one the
    ///     daemon runs without a token even if this process has `UNDERSTUDY_ADMIN_TOKEN` set.
    ///   - extraArguments: anything else for `understudy serve`.
    ///   - binary: the executable; by default `UNDERSTUDY_BIN` or the one beside the test binary.
    ///   - startupTimeout: how long to wait for the readiness line.
    /// - Throws: `UnderstudyError` — with the daemon's stderr when it exits early (a bad stub file).
    public static func launch(
        stubs: [String], journalFile: String? = nil, unmatchedStatus: Int? = nil,
        adminToken: String? = nil, extraArguments: [String] = [], binary: String? = nil,
        startupTimeout: TimeInterval = 15
    ) async throws(UnderstudyError) -> Understudy {
        // No stubs means none: without a path the daemon would load ./stubs. It reads the empty
        // directory once, as it starts, so the directory goes as soon as the start is over.
        let emptyDirectory = stubs.isEmpty ? try SharedDaemon.emptyStubDirectory() : nil
        defer { if let emptyDirectory { try? FileManager.default.removeItem(atPath: emptyDirectory) } }
        var arguments = emptyDirectory.map { [$0] } ?? stubs
        if let journalFile { arguments += ["--journal", journalFile] }
        if let unmatchedStatus { arguments += ["--unmatched-status", String(unmatchedStatus)] }
        let (url, process) = try await startDaemon(
            arguments: arguments + extraArguments, adminToken: adminToken,
            binary: binary, startupTimeout: startupTimeout)
        return Understudy(baseURL: url, backing: .launched(process), adminToken: adminToken)
    }

    /// Runs `understudy serve <arguments> --host 127.0.0.1 --port 0 --quiet --exit-on-stdin-eof`
    /// and waits for its readiness line.
    static func startDaemon(
        arguments: [String], adminToken: String?, binary: String?,
        startupTimeout: TimeInterval
    ) async throws(UnderstudyError) -> (URL, DaemonProcess) {
        let executable: String
        if let binary { executable = binary } else { executable = try UnderstudyBinaryLocator.locate() }
        // Gone with this process, however it ends: the daemon watches the stdin pipe we hold.
        let serve = ["serve", "--host", "127.0.0.1", "--port", "0", "--quiet", "--exit-on-stdin-eof"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment[adminTokenVariable] = adminToken
        let process = try DaemonProcess(binary: executable, arguments: serve, environment: environment)
        do {
            return (try await process.waitUntilReady(timeout: startupTimeout), process)
        } catch {
            _ = await process.stop(timeout: 2)
            throw error
        }
    }

    /// Uses a daemon that is already running at `url` (`stop()` then does nothing); `adminToken`
    /// is sent with every admin call, for a daemon started with one.
    public static func attach(url: URL, adminToken: String? = nil) -> Understudy {
        Understudy(baseURL: url, backing: .attached, adminToken: adminToken)
    }

    /// Attaches to `UNDERSTUDY_URL` when it is set, and otherwise launches a daemon with `stubs`
    /// (which the attached daemon is expected to have loaded already, or to be given through
    /// `admin.addStubs`). `UNDERSTUDY_ADMIN_TOKEN`, when set, is the admin token either way.
    public static func attachOrLaunch(
        stubs: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        async throws(UnderstudyError) -> Understudy
    {
        let (url, token) = try daemonFromEnvironment(environment)
        if let url { return attach(url: url, adminToken: token) }
        return try await launch(stubs: stubs, adminToken: token)
    }

    /// `UNDERSTUDY_URL` (nil when unset or empty; an error when it is not an http(s) URL) and
    /// `UNDERSTUDY_ADMIN_TOKEN` (nil when unset or empty).
    static func daemonFromEnvironment(_ environment: [String: String]) throws(UnderstudyError) -> (
        url: URL?, token: String?
    ) {
        let token = environment[adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard let text = environment["UNDERSTUDY_URL"], !text.isEmpty else { return (nil, token) }
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            throw .invalidURL(text)
        }
        return (url, token)
    }

    /// Whether this handle started the daemon (rather than attaching to it or being a session).
    public var isLaunched: Bool {
        if case .launched = backing { return true }
        return false
    }

    /// The session's id, when this handle is a session.
    public var sessionID: String? {
        if case let .session(lease) = backing { return lease.id }
        return nil
    }

    /// The daemon's process id, when this handle (or the process-wide daemon) launched it.
    public var processIdentifier: Int32? { process?.pid }

    /// What the launched daemon has written to stderr so far.
    public var standardError: String { process?.standardError ?? "" }

    var process: DaemonProcess? {
        switch backing {
        case let .launched(process): process
        case let .shared(process): process
        case .attached, .session: nil
        }
    }

    /// Ends what this handle owns and returns the daemon's exit status when there is one: a
    /// launched daemon is stopped gracefully (SIGTERM, SIGKILL after `timeout`); a session is
    /// deleted (its port closes); an attached or the process-wide daemon is left running.
    @discardableResult
    public func stop(timeout: TimeInterval = 5) async -> Int32? {
        switch backing {
        case let .launched(process): return await process.stop(timeout: timeout)
        case let .session(lease): await lease.delete()
        case .attached, .shared: break
        }
        return nil
    }

    /// `stop()` without waiting, for `defer` blocks and teardown that cannot await: SIGTERM for a
    /// launched daemon, a delete sent in the background for a session.
    public func stopWithoutWaiting() {
        switch backing {
        case let .launched(process): process.terminateNow()
        case let .session(lease): lease.deleteWithoutWaiting()
        case .attached, .shared: break
        }
    }
}
