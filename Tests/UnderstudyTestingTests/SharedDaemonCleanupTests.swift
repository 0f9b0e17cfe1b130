import Foundation
import Testing

// The daemon's launch internals (`SharedDaemon`) are not public API; this file alone looks at them.
@testable import UnderstudyTesting

#if canImport(Glibc)
import Glibc
#endif

@Suite("UnderstudyTesting: the shared daemon's temporary files")
struct SharedDaemonCleanupTests {
    /// This process's empty stub directories (the kit names them after the pid).
    static func stubDirectories() throws -> Set<String> {
        Set(
            try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
                .filter { $0.hasPrefix(SharedDaemon.stubDirectoryPrefix) })
    }

    /// Whether every stub directory not in `before` is gone within a deadline. Other tests of this
    /// process start daemons in parallel, and each of their directories lives for that start: one
    /// that is still there after 10 s was left behind.
    static func noneLeftBehind(since before: Set<String>) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try stubDirectories().subtracting(before).isEmpty { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try stubDirectories().subtracting(before).isEmpty
    }

    /// The shared daemon's empty stub directory is gone once the daemon has started, or failed to:
    /// a test process, passing or failing, leaves no `understudy-shared-*` behind (issue 48, item 7).
    @Test func theSharedDaemonLeavesNoStubDirectoryBehind() async throws {
        // A directory of an earlier process that had this pid is not this test's business.
        let before = try Self.stubDirectories()
        _ = try await Understudy.shared()
        #expect(try await Self.noneLeftBehind(since: before), "after Understudy.shared()")
        var environment = ProcessInfo.processInfo.environment
        environment["UNDERSTUDY_URL"] = nil
        // A missing binary: found missing before anything is made.
        environment["UNDERSTUDY_BIN"] = "/nonexistent/understudy"
        await #expect(throws: UnderstudyError.self) {
            _ = try await SharedDaemon.attachOrStart(environment: environment)
        }
        #expect(try await Self.noneLeftBehind(since: before), "after a missing binary")
        // A binary that exits at once: the directory was made, and goes with the failed start.
        environment["UNDERSTUDY_BIN"] = "/bin/false"
        await #expect(throws: UnderstudyError.self) {
            _ = try await SharedDaemon.attachOrStart(environment: environment)
        }
        #expect(try await Self.noneLeftBehind(since: before), "after a launch that failed")
        // A daemon that started: it has read the directory, which is gone while it serves.
        environment["UNDERSTUDY_BIN"] = try UnderstudyBinaryLocator.locate()
        let daemon = try await SharedDaemon.attachOrStart(environment: environment)
        let pid = try #require(daemon.processIdentifier)
        defer { kill(pid, SIGTERM) }
        #expect(try await daemon.admin.health().status == "ok")
        #expect(try await Self.noneLeftBehind(since: before), "while a started daemon serves")
    }

    /// `Understudy.launch(stubs: [])` makes the same kind of directory, for the same moment.
    @Test func aLaunchWithNoStubsLeavesNoStubDirectoryBehind() async throws {
        let before = try Self.stubDirectories()
        let daemon = try await Understudy.launch(stubs: [])
        #expect(try await daemon.admin.health().stubs == 0)
        #expect(try await Self.noneLeftBehind(since: before), "while it serves")
        await daemon.stop()
        await #expect(throws: UnderstudyError.self) { _ = try await Understudy.launch(stubs: [], binary: "/bin/false") }
        #expect(try await Self.noneLeftBehind(since: before), "after a launch that failed")
    }
}
