import Foundation
import Testing
import UnderstudyTesting

/// Not a test on its own: `scripts/benchmark/parallel_suite_bench.sh` runs it with
/// `UNDERSTUDY_KIT_SESSION_COST=N` to time N session lifetimes as a test sees them —
/// `Understudy.session(stubs:)` with the isolation suite's stub file, then `stop()` — one after
/// the other on the shared daemon. Skipped in a normal run.
@Test(.enabled(if: ProcessInfo.processInfo.environment["UNDERSTUDY_KIT_SESSION_COST"] != nil))
func sessionCostProbe() async throws {
    let count = Int(ProcessInfo.processInfo.environment["UNDERSTUDY_KIT_SESSION_COST"] ?? "") ?? 200
    _ = try await Understudy.shared()  // the daemon's start is not a session's cost
    var create: [Double] = []
    var delete: [Double] = []
    for _ in 0..<count {
        let started = DispatchTime.now().uptimeNanoseconds
        let session = try await Understudy.session(stubs: [Fixtures.path("isolation.json")])
        let created = DispatchTime.now().uptimeNanoseconds
        await session.stop()
        let deleted = DispatchTime.now().uptimeNanoseconds
        create.append(Double(created - started) / 1e6)
        delete.append(Double(deleted - created) / 1e6)
    }
    func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
    }
    print(
        String(
            format:
                "session cost over %d sessions: create median %.3f ms p90 %.3f ms, delete median %.3f ms p90 %.3f ms",
            count, percentile(create, 0.5), percentile(create, 0.9), percentile(delete, 0.5), percentile(delete, 0.9)))
    #expect(create.count == count)
}
