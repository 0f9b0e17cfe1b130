import RESTNetworking
import UnderstudyTesting
import XCTest

/// A create that is safe to retry, proven against the daemon on this run's transport (`scripts/test`
/// runs the suite on URLSession and on AsyncHTTPClient): the session's clock is frozen and the client's
/// retry scheduler is manual, and the test moves both by the delay the client asked for, so the
/// journal's retry verdicts are exact and nothing waits in real time.
final class IdempotentCreateIntegrationTests: XCTestCase {
    struct Charge: Decodable, Sendable, Equatable {
        let id: String
        let amount: Int
        let order: String
    }

    private static let frozenAt = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01T00:00:00Z
    private var understudy: Understudy!
    private var api: StubbedAPI!
    private let scheduler = ManualRetryScheduler()

    override func setUp() async throws {
        try await super.setUp()
        let session = try await Understudy.session(
            stubs: [DaemonTestCase.stubDirectory], name: name, clock: .frozen(at: Self.frozenAt))
        addTeardownBlock {
            await session.assertNoUnmatchedRequests("when the test ended")
            await session.stop()
        }
        understudy = session
        api = StubbedAPI(baseURL: session.baseURL)
    }

    override func tearDown() async throws {
        understudy = nil
        api = nil
        try await super.tearDown()
    }

    private static let create = Endpoint<Charge>(
        .post, "rest/charges", form: ["amount": 2000, "currency": "eur", "metadata": ["order": "7"]])

    /// Runs `call` while moving the daemon's clock and the client's scheduler together, by each
    /// delay the client schedules, until the call ends.
    private func runOnVirtualTime<T: Sendable>(_ call: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await call() }
        let finished = Locked(false)
        let watcher = Task {
            _ = await task.result
            finished.withLock { $0 = true }
        }
        var advanced = 0
        while !finished.withLock({ $0 }) {
            if scheduler.pendingCount > 0 {
                let delay = scheduler.requestedDelays[advanced]
                advanced += 1
                if delay > 0 { try await understudy.clock.advance(by: .milliseconds(Int((delay * 1000).rounded()))) }
                scheduler.advance(by: delay)
            } else {
                try await Task.sleep(nanoseconds: 2_000_000)  // polling for the next step, not timing it
            }
        }
        _ = await watcher.value
        return try await task.value
    }

    func testACreateMeetingAResetThenA503IsSentThreeTimesWithOneKeyAndChargedOnce() async throws {
        let policy = RetryPolicy(maxAttempts: 4, baseDelay: 0.2)
        let api = self.api!
        let scheduler = self.scheduler
        let charge = try await runOnVirtualTime {
            try await api.call(Self.create).retryOnFailure(policy: policy, scheduler: scheduler).value()
        }
        XCTAssertEqual(charge.amount, 2000)
        XCTAssertEqual(charge.order, "7")
        XCTAssertEqual(scheduler.requestedDelays.count, 2)
        XCTAssertEqual(scheduler.requestedDelays.last, 1, "the 503's Retry-After, waited out")

        let attempts = try await understudy.admin.requests(RequestFilter(stub: "rest-create-charge"))
        XCTAssertEqual(attempts.map(\.status), [nil, 503, 201])
        XCTAssertEqual(attempts.first?.fault, "connection-reset")
        let keys = Set(attempts.map { $0.header("Idempotency-Key") })
        XCTAssertEqual(keys.count, 1, "one key on every attempt: \(keys)")
        let key = try XCTUnwrap(keys.first ?? nil)
        XCTAssertEqual(Set(attempts.map(\.body)), ["amount=2000&currency=eur&metadata[order]=7"])
        XCTAssertEqual(attempts.last?.retry?.verdict, "on-time")
        XCTAssertEqual(attempts.last?.retry?.askedMs, 1000)
        XCTAssertEqual(attempts.last?.retry?.waitedMs, 1000)
        await understudy.assertRetryDiscipline(RequestFilter(stub: "rest-create-charge"))

        // The same logical call sent again (say the answer was lost on the way back): the charge is
        // replayed, not made twice, and the stub's fourth response is never reached.
        let again = try await api.call(
            Endpoint<Charge>(
                .post, "rest/charges", headers: ["Idempotency-Key": key],
                form: ["amount": 2000, "currency": "eur", "metadata": ["order": "7"]])
        )
        .retryOnFailure(policy: policy, scheduler: scheduler)
        .response()
        XCTAssertEqual(again.value, charge)
        XCTAssertEqual(again.response.value(forHTTPHeaderField: "Idempotent-Replayed"), "true")
        let all = try await understudy.admin.requests(RequestFilter(stub: "rest-create-charge"))
        XCTAssertEqual(all.map { $0.idempotency?.outcome }, ["first", "first", "first", "replay"])
        XCTAssertEqual(all.last?.responseIndex, 2)
        await understudy.assertRetryDiscipline(RequestFilter(stub: "rest-create-charge"))
    }

    func testWithoutKeysTheRetryDisciplineFailsWithAReadableTable() async throws {
        let policy = RetryPolicy(
            maxAttempts: 4, baseDelay: 0.2, retriesNonIdempotentRequests: true, idempotencyKeys: .callerSupplied)
        let api = self.api!
        let scheduler = self.scheduler
        _ = try await runOnVirtualTime {
            try await api.call(Self.create).retryOnFailure(policy: policy, scheduler: scheduler).value()
        }
        let report = try await understudy.retryDiscipline(RequestFilter(stub: "rest-create-charge"))
        XCTAssertEqual(report.problems.map(\.rule), [.missingKey, .missingKey, .missingKey])
        XCTAssertEqual(report.problems.map(\.seq), report.attempts.map(\.seq))
        let message = report.description
        XCTAssertTrue(message.hasPrefix("3 retry discipline problem(s):\n"), message)
        XCTAssertTrue(
            message.contains("missing idempotency key: POST /rest/charges attempt without Idempotency-Key"), message)
        XCTAssertTrue(message.contains("fault connection-reset"), message)
        XCTAssertTrue(message.contains("waited 1000 of 1000 ms"), message)
        XCTAssertEqual(
            message.components(separatedBy: "▶").count - 1, 3, "each offending attempt is marked: \(message)")
    }

    /// Retries at once, whatever the server asked for.
    struct Impatient: RetryDeciding {
        func decision(for context: RetryContext) -> RetryDecision {
            context.retriesSoFar < 2 ? .retry(after: 0) : .fail
        }
    }

    func testAnImpatientClientFailsTheDisciplineAndInEnforcingModeGetsThe429Again() async throws {
        let api = self.api!
        let scheduler = self.scheduler
        let result = try await runOnVirtualTime {
            await api.call(.post, endpoint: "rest/busy", body: Data("{}".utf8))
                .retrying(using: Impatient(), scheduler: scheduler).resultOfResponse()
        }
        XCTAssertEqual((result.failure as? HTTPClientError)?.statusCode, 429)
        let attempts = try await understudy.admin.requests(RequestFilter(stub: "rest-busy-refuse"))
        XCTAssertEqual(attempts.map(\.status), [429, 429, 429])
        XCTAssertEqual(attempts.map { $0.retry?.verdict }, [nil, "refused", "refused"])
        XCTAssertEqual(attempts.map(\.responseIndex), [0, nil, nil], "the refused retries did not move the sequence")
        XCTAssertEqual(attempts.last?.response?.header("Retry-After"), "2")

        let report = try await understudy.retryDiscipline(RequestFilter(stub: "rest-busy-refuse"))
        XCTAssertEqual(report.problems.map(\.rule), [.earlyRetry, .earlyRetry])
        XCTAssertTrue(
            report.description.contains(
                "came 0 ms after an answer that asked for 2000 ms (2000 ms early, refused again)"),
            report.description)
        XCTAssertTrue(report.description.contains("EARLY by 2000 ms (asked 2000)"), report.description)
    }
}

extension RESTCall {
    /// The exchange or the error, for tests that expect a failure.
    func resultOfResponse() async -> Result<HTTPResponseOutput, any Error> {
        do {
            return .success(try await response())
        } catch {
            return .failure(error)
        }
    }
}
