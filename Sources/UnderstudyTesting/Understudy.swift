import Foundation

/// A handle on an `understudy` daemon for a test suite: one it started (`launch`) or one already
/// running (`attach`).
///
/// ```swift
/// let understudy = try await Understudy.launch(stubs: ["stubs/restnetworking/readme-posts.json"])
/// defer { understudy.stopWithoutWaiting() }   // or `await understudy.stop()` at the end
/// // … point the client at understudy.baseURL, then:
/// let requests = try await understudy.admin.requests(path: "/rest/readme/posts")
/// ```
public final class Understudy: Sendable {
    /// Where the daemon listens, e.g. `http://127.0.0.1:50123`.
    public let baseURL: URL
    /// Typed access to the admin API.
    public let admin: UnderstudyAdmin
    let process: DaemonProcess?

    /// The environment variable an `understudy` daemon reads its admin token from.
    public static let adminTokenVariable = "UNDERSTUDY_ADMIN_TOKEN"

    private init(baseURL: URL, process: DaemonProcess?, adminToken: String?) {
        self.baseURL = baseURL
        self.admin = UnderstudyAdmin(baseURL: baseURL, adminToken: adminToken)
        self.process = process
    }

    deinit {
        process?.terminateNow()
    }

    /// Starts `understudy serve <stubs> --port 0 --quiet` and waits for its readiness line.
    ///
    /// - Parameters:
    ///   - stubs: stub files or directories, relative to the current directory or absolute.
    ///   - journalFile: also write the journal as JSON Lines to this file.
    ///   - unmatchedStatus: the status for requests no stub matches (the daemon's default is 404).
    ///   - adminToken: start the daemon with this admin token (passed in `UNDERSTUDY_ADMIN_TOKEN`, so
    ///     it never shows in the process list) and send it with every admin call. Without one the
    ///     daemon runs without a token even if this process has `UNDERSTUDY_ADMIN_TOKEN` set.
    ///   - extraArguments: anything else for `understudy serve`.
    ///   - binary: the executable; by default `UNDERSTUDY_BIN` or the one beside the test binary.
    ///   - startupTimeout: how long to wait for the readiness line.
    /// - Throws: `UnderstudyError` — with the daemon's stderr when it exits early (a bad stub file).
    public static func launch(stubs: [String], journalFile: String? = nil, unmatchedStatus: Int? = nil,
                              adminToken: String? = nil, extraArguments: [String] = [], binary: String? = nil,
                              startupTimeout: TimeInterval = 15) async throws(UnderstudyError) -> Understudy {
        let executable: String
        if let binary { executable = binary } else { executable = try UnderstudyBinaryLocator.locate() }
        var arguments = ["serve"] + stubs + ["--host", "127.0.0.1", "--port", "0", "--quiet"]
        if let journalFile { arguments += ["--journal", journalFile] }
        if let unmatchedStatus { arguments += ["--unmatched-status", String(unmatchedStatus)] }
        arguments += extraArguments
        var environment = ProcessInfo.processInfo.environment
        environment[adminTokenVariable] = adminToken
        let process = try DaemonProcess(binary: executable, arguments: arguments, environment: environment)
        do {
            let url = try await process.waitUntilReady(timeout: startupTimeout)
            return Understudy(baseURL: url, process: process, adminToken: adminToken)
        } catch {
            _ = await process.stop(timeout: 2)
            throw error
        }
    }

    /// Uses a daemon that is already running at `url` (`stop()` then does nothing); `adminToken`
    /// is sent with every admin call, for a daemon started with one.
    public static func attach(url: URL, adminToken: String? = nil) -> Understudy {
        Understudy(baseURL: url, process: nil, adminToken: adminToken)
    }

    /// Attaches to `UNDERSTUDY_URL` when it is set, and otherwise launches a daemon with `stubs`
    /// (which the attached daemon is expected to have loaded already, or to be given through
    /// `admin.addStubs`). `UNDERSTUDY_ADMIN_TOKEN`, when set, is the admin token either way.
    public static func attachOrLaunch(stubs: [String],
                                      environment: [String: String] = ProcessInfo.processInfo.environment)
        async throws(UnderstudyError) -> Understudy {
        let token = environment[adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let text = environment["UNDERSTUDY_URL"], !text.isEmpty {
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                throw .invalidURL(text)
            }
            return attach(url: url, adminToken: token)
        }
        return try await launch(stubs: stubs, adminToken: token)
    }

    /// Whether this handle started the daemon (rather than attaching to it).
    public var isLaunched: Bool { process != nil }

    /// The daemon's process id, when this handle launched it.
    public var processIdentifier: Int32? { process?.pid }

    /// What the launched daemon has written to stderr so far.
    public var standardError: String { process?.standardError ?? "" }

    /// Stops a launched daemon gracefully (SIGTERM, SIGKILL after `timeout`) and returns its exit
    /// status; does nothing for an attached one.
    @discardableResult
    public func stop(timeout: TimeInterval = 5) async -> Int32? {
        await process?.stop(timeout: timeout)
    }

    /// Sends SIGTERM without waiting, for `defer` blocks and teardown that cannot await.
    public func stopWithoutWaiting() {
        process?.terminateNow()
    }
}
