import Foundation

/// Journal entries a handle has already reported as failures, so a request fails a test once —
/// whether `assertNoUnmatchedRequests` runs twice, or the test reported it itself (inside
/// `withKnownIssue`, say) before the trait's end-of-test check. An entry is known by its `seq`
/// and `elapsedMs` together, since `reset()` starts `seq` again from 1 but the clock goes on.
final class ReportedRequests: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: Set<String> = []

    /// The entries of `requests` not reported before, which are now marked as reported.
    func claimNew(_ requests: [RecordedRequest]) -> [RecordedRequest] {
        lock.withLock {
            requests.filter { keys.insert("\($0.seq)@\($0.elapsedMs)").inserted }
        }
    }
}
