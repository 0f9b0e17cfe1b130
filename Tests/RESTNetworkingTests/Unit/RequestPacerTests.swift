@testable import RESTNetworking
import XCTest

/// The pacer's rules on a manual clock, with answers made up in the test (the same rules run
/// against the daemon in PacingIntegrationTests).
final class RequestPacerTests: XCTestCase {
    private let url = URL(string: "http://127.0.0.1:9/paced")!
    private var scheduler: ManualRetryScheduler!
    private var granted: Granted!

    override func setUp() {
        scheduler = ManualRetryScheduler()
        granted = Granted()
    }

    /// Permits handed out, in order.
    final class Granted: @unchecked Sendable {
        private let lock = NSLock()
        private var permits: [RequestPacer.Permit] = []
        func append(_ permit: RequestPacer.Permit) {
            lock.lock()
            permits.append(permit)
            lock.unlock()
        }
        var all: [RequestPacer.Permit] {
            lock.lock()
            defer { lock.unlock() }
            return permits
        }
    }

    private func request(_ pacer: RequestPacer) -> RetryCancellation {
        let granted = self.granted!
        return pacer.acquire(for: url) { granted.append($0) }
    }

    private func answer(
        _ pacer: RequestPacer, _ permit: RequestPacer.Permit, status: Int = 200, _ headers: [String: String]
    ) {
        pacer.complete(
            permit,
            response: HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!)
    }

    func testTheFirstRequestGoesAloneThenTheBudgetIsSpentAndHeldUntilTheReset() {
        let pacer = RequestPacer(scheduler: scheduler)
        for _ in 0..<5 { _ = request(pacer) }
        XCTAssertEqual(granted.all.count, 1, "nothing known yet: one request finds out")
        XCTAssertEqual(pacer.heldRequests, 4)

        answer(pacer, granted.all[0], ["RateLimit-Limit": "3", "RateLimit-Remaining": "2", "RateLimit-Reset": "1"])
        XCTAssertEqual(granted.all.count, 3, "two left in the budget")
        XCTAssertEqual(pacer.snapshot(for: url).remaining, 0)
        XCTAssertEqual(scheduler.requestedDelays, [1], "held until the reset the server announced")

        scheduler.advance(by: 0.999)
        XCTAssertEqual(granted.all.count, 3)
        scheduler.advance(by: 0.001)
        XCTAssertEqual(granted.all.count, 3, "after the reset the budget is unknown: wait for requests on the wire")
        answer(pacer, granted.all[1], ["RateLimit-Remaining": "1", "RateLimit-Reset": "1"])
        answer(pacer, granted.all[2], ["RateLimit-Remaining": "0", "RateLimit-Reset": "1"])
        XCTAssertEqual(granted.all.count, 3, "stale answers after the reset hold for their own reset")
        scheduler.advance(by: 1)
        XCTAssertEqual(granted.all.count, 4, "then one request probes the new budget")
    }

    func testAnswersCountRequestsSentAfterThemAsNotYetCounted() {
        let pacer = RequestPacer(scheduler: scheduler)
        for _ in 0..<6 { _ = request(pacer) }
        answer(pacer, granted.all[0], [:])
        XCTAssertEqual(granted.all.count, 6, "no fields: not limited, all go")
        // Request 2 answers "4 left", but requests 3–6 went out after it: the server may not have
        // counted them yet, so the budget is 4 − 4 = 0, not 4.
        answer(pacer, granted.all[1], ["RateLimit-Remaining": "4", "RateLimit-Reset": "5"])
        _ = request(pacer)
        XCTAssertEqual(granted.all.count, 6)
        XCTAssertEqual(pacer.heldRequests, 1)
        XCTAssertEqual(pacer.snapshot(for: url).remaining, 0)
        XCTAssertEqual(pacer.snapshot(for: url).resetIn, 5)
        // A later answer saying more is left does not raise the budget before the reset.
        answer(pacer, granted.all[5], ["RateLimit-Remaining": "9", "RateLimit-Reset": "1"])
        XCTAssertEqual(granted.all.count, 6)
        scheduler.advance(by: 5)
        XCTAssertEqual(granted.all.count, 6, "after the reset, wait for the requests still on the wire")
        for permit in granted.all[2...4] { pacer.complete(permit, response: nil) }
        XCTAssertEqual(granted.all.count, 7, "then one request probes the new budget")
    }

    func testA429sRetryAfterHoldsEveryone() {
        let pacer = RequestPacer(scheduler: scheduler)
        _ = request(pacer)
        _ = request(pacer)
        answer(pacer, granted.all[0], status: 429, ["Retry-After": "2"])
        XCTAssertEqual(granted.all.count, 1)
        XCTAssertEqual(scheduler.requestedDelays, [2])
        scheduler.advance(by: 2)
        XCTAssertEqual(granted.all.count, 2)
    }

    func testAHostWithoutRateLimitFieldsIsNotPaced() {
        let pacer = RequestPacer(scheduler: scheduler)
        for _ in 0..<6 { _ = request(pacer) }
        answer(pacer, granted.all[0], [:])
        XCTAssertEqual(granted.all.count, 6)
        XCTAssertFalse(pacer.snapshot(for: url).isLimited)
    }

    func testTheConcurrencyCapHoldsWhateverTheBudget() {
        let pacer = RequestPacer(maxConcurrentRequests: 2, scheduler: scheduler)
        for _ in 0..<5 { _ = request(pacer) }
        answer(pacer, granted.all[0], [:])
        XCTAssertEqual(granted.all.count, 3, "unlimited, but at most two on the wire")
        XCTAssertEqual(pacer.snapshot(for: url).inFlight, 2)
        pacer.complete(granted.all[1], response: nil)
        XCTAssertEqual(granted.all.count, 4, "a failure frees its place too")
    }

    func testCancellingAHeldRequestTakesItOutOfTheQueue() {
        let pacer = RequestPacer(scheduler: scheduler)
        _ = request(pacer)
        let cancel = request(pacer)
        _ = request(pacer)
        answer(pacer, granted.all[0], ["RateLimit-Remaining": "0", "RateLimit-Reset": "1"])
        XCTAssertEqual(pacer.heldRequests, 2)
        cancel()
        XCTAssertEqual(pacer.heldRequests, 1)
        scheduler.advance(by: 1)
        XCTAssertEqual(granted.all.map(\.ticket), [1, 2], "the cancelled request never got a permit")
    }

    func testHostsHaveSeparateBudgets() {
        let pacer = RequestPacer(scheduler: scheduler)
        _ = request(pacer)
        answer(pacer, granted.all[0], ["RateLimit-Remaining": "0", "RateLimit-Reset": "30"])
        let other = URL(string: "http://127.0.0.1:10/other")!
        let granted = self.granted!
        _ = pacer.acquire(for: other) { granted.append($0) }
        XCTAssertEqual(granted.all.count, 2, "another port is another origin")
        XCTAssertEqual(RequestPacer.key(for: URL(string: "HTTP://LocalHost/x")!), "http://localhost:80")
    }
}
