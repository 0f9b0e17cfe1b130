import Foundation
import Testing
import UnderstudyTesting

/// Not a test on its own: `Tests/BlackBox/test_kit_daemon_dies_with_runner.py` runs this test
/// binary with `UNDERSTUDY_KIT_PROBE=FILE`, reads the shared daemon's pid from FILE, SIGKILLs the
/// runner and checks that the daemon goes too. Skipped in a normal run.
@Test(.enabled(if: ProcessInfo.processInfo.environment["UNDERSTUDY_KIT_PROBE"] != nil))
func sharedDaemonProbeWaitsToBeKilled() async throws {
    let file = try #require(ProcessInfo.processInfo.environment["UNDERSTUDY_KIT_PROBE"])
    let shared = try await Understudy.shared()
    let session = try await Understudy.session()
    let pid = try #require(shared.processIdentifier)
    try Data("\(pid) \(shared.baseURL.absoluteString) \(session.baseURL.absoluteString)\n".utf8)
        .write(to: URL(fileURLWithPath: file), options: .atomic)
    // Wait (bounded) for the SIGKILL that the black-box test sends.
    try await Task.sleep(nanoseconds: 60_000_000_000)
    Issue.record("the probe was not killed within 60 s")
}
