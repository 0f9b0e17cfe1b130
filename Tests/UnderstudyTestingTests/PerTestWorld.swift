import Foundation
import Testing
import UnderstudyTesting

/// The isolation suite's fixture: by default exactly the `.understudy(stubs:)` trait (a session
/// per test on the one shared daemon); with `UNDERSTUDY_SUITE_MODE=daemon-per-test` a daemon
/// launched for each test instead, so `scripts/benchmark/parallel_suite_bench.sh` can time the
/// same suite both ways. Either way the test finds its world in `Understudy.current`.
struct PerTestWorld: TestTrait, SuiteTrait, TestScoping {
    let stubs: [String]

    static var daemonPerTest: Bool {
        ProcessInfo.processInfo.environment["UNDERSTUDY_SUITE_MODE"] == "daemon-per-test"
    }

    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void)
        async throws
    {
        guard Self.daemonPerTest else {
            let sessions: UnderstudyTrait = .understudy(stubs: stubs)
            try await sessions.provideScope(for: test, testCase: testCase, performing: function)
            return
        }
        let daemon = try await Understudy.launch(stubs: stubs)
        do {
            try await Understudy.$current.withValue(daemon, operation: function)
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.assertNoUnmatchedRequests("when the test ended")
        await daemon.stop()
    }
}

extension Trait where Self == PerTestWorld {
    /// A world per test with `stubs`: a session (default) or a daemon of its own (see above).
    static func perTestWorld(stubs: String...) -> Self { PerTestWorld(stubs: stubs) }
}
