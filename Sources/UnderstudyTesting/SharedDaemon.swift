import Foundation

/// The one daemon a test process shares (`Understudy.shared()`): started on first use, by
/// whichever test gets there first, and never stopped from Swift — it ends with the process,
/// through `--exit-on-stdin-eof`.
final class SharedDaemon: @unchecked Sendable {
    static let instance = SharedDaemon()

    private let lock = NSLock()
    private var start: Task<Understudy, any Error>?

    /// The shared handle; every caller awaits the same start. A failed start is kept, so a
    /// missing binary fails each test at once instead of each test trying again.
    func handle() async throws(UnderstudyError) -> Understudy {
        let start = lock.withLock {
            if let start = self.start { return start }
            let started = Task { () async throws -> Understudy in try await Self.attachOrStart() }
            self.start = started
            return started
        }
        do {
            return try await start.value
        } catch let error as UnderstudyError {
            throw error
        } catch {
            throw .launchFailed(binary: "understudy", reason: "\(error)")
        }
    }

    /// `UNDERSTUDY_URL` when set (with `UNDERSTUDY_ADMIN_TOKEN`), otherwise a new daemon with no
    /// stubs of its own — each session brings its stubs — and room for a session per test.
    ///
    /// A launched one always serves HTTPS too (`--https`), so any session can ask for `tls`:
    /// the CA is a P-256 key made in well under a millisecond, and the extra listener is one
    /// socket, so this costs start-up next to nothing (docs/https-swift.md has the measurement),
    /// whereas starting it on demand would need a second daemon once one without HTTPS runs.
    static func attachOrStart(environment: [String: String] = ProcessInfo.processInfo.environment)
        async throws(UnderstudyError) -> Understudy
    {
        let (attachURL, token) = try Understudy.daemonFromEnvironment(environment)
        if let attachURL { return Understudy(baseURL: attachURL, backing: .shared(nil), adminToken: token) }
        // Found before anything is made on disk: a missing binary leaves nothing behind.
        let binary = try UnderstudyBinaryLocator.locate(environment: environment)
        let stubDirectory = try emptyStubDirectory()
        // The daemon reads its stub paths once, as it starts; once it is ready (or has failed to
        // start) the empty directory has done its job. Removing it here, whatever happened, is what
        // keeps a test run from leaving one per process in the temporary directory.
        defer { try? FileManager.default.removeItem(atPath: stubDirectory) }
        let (url, process) = try await Understudy.startDaemon(
            arguments: [stubDirectory, "--https"],
            adminToken: token, binary: binary, startupTimeout: 30)
        return Understudy(baseURL: url, backing: .shared(process), adminToken: token)
    }

    /// The prefix of the empty stub directories `emptyStubDirectory()` makes for this process.
    static var stubDirectoryPrefix: String {
        "understudy-shared-\(ProcessInfo.processInfo.processIdentifier)-"
    }

    /// An empty directory to give the daemon as its stub path (without one it would load
    /// `./stubs`, and every session would start with those).
    static func emptyStubDirectory() throws(UnderstudyError) -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent(stubDirectoryPrefix + UUID().uuidString)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .launchFailed(binary: "understudy", reason: "cannot create \(directory.path): \(error)")
        }
        return directory.path
    }
}
