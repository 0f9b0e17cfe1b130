import RESTNetworking
import UnderstudyTesting
import XCTest

/// `RequestPacer` against the daemon's enforced rate limit: every number here comes from the
/// daemon's journal (its arrival order, statuses and monotonic `elapsedMs`).
final class PacingIntegrationTests: DaemonTestCase {
    /// The workload: 40 GETs, 8 at a time (8 workers, 5 requests each), against a stub
    /// limited to 10 requests per second. Each call also has the reactive `respondToRateLimiting`,
    /// so both runs end with 40 successes; what differs is how many 429s it took.
    private func runWorkload(_ api: StubbedAPI) async throws {
        let call = api.call(.get, endpoint: "rest/paced").respondToRateLimiting(maxRetries: 100, maxSecondsToWait: 2)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<5 {
                        let (_, response) = try await call.response()
                        XCTAssertEqual(response.statusCode, 200)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private struct Outcome { var successes: Int; var refusals: Int; var spanMs: Double }

    private func outcome() async throws -> Outcome {
        let requests = try await journal("/rest/paced")
        return Outcome(successes: requests.filter { $0.status == 200 }.count,
                       refusals: requests.filter { $0.status == 429 }.count,
                       spanMs: (requests.last?.elapsedMs ?? 0) - (requests.first?.elapsedMs ?? 0))
    }

    func testPacedFortyRequestsEightAtATimeNeverHearA429() async throws {
        let api = StubbedAPI(baseURL: understudy.baseURL, pacer: RequestPacer(), connectionsPerHost: 8)
        try await runWorkload(api)

        let result = try await outcome()
        print("pacing: paced workload: \(result.successes) × 200, \(result.refusals) × 429, \(Int(result.spanMs)) ms first to last")
        XCTAssertEqual(result.successes, 40)
        XCTAssertEqual(result.refusals, 0, "the pacer kept every request inside the limit")
        XCTAssertGreaterThanOrEqual(result.spanMs, 3_000, "40 requests at 10 per second cannot take less than 3 s")
    }

    func testUnpacedTheSameWorkloadIsRefused() async throws {
        let api = StubbedAPI(baseURL: understudy.baseURL, connectionsPerHost: 8)
        try await runWorkload(api)

        let result = try await outcome()
        print("pacing: unpaced workload: \(result.successes) × 200, \(result.refusals) × 429, \(Int(result.spanMs)) ms first to last")
        XCTAssertEqual(result.successes, 40)
        XCTAssertGreaterThan(result.refusals, 0, "8 clients at once overrun a limit of 10 per second")
    }

    func testTheDraftsStructuredFieldsHoldTheNextRequestUntilTheReset() async throws {
        let api = StubbedAPI(baseURL: understudy.baseURL, pacer: RequestPacer())
        let endpoint = Endpoint<[String: Int]>(.get, "rest/draft/limited")
        var answers: [Int] = []
        for _ in 0..<4 {
            let (value, response) = try await api.call(endpoint).response()
            answers.append(value["left"] ?? -1)
            XCTAssertNotNil(response.value(forHTTPHeaderField: "RateLimit"))
            XCTAssertNil(response.value(forHTTPHeaderField: "RateLimit-Remaining"), "only the draft's fields to go by")
        }

        XCTAssertEqual(answers, [1, 0, 1, 0])
        let requests = try await journal("/rest/draft/limited")
        XCTAssertEqual(requests.count, 4)
        // `RateLimit: "burst";r=0;t=1` on the second answer: the third request waits out the second.
        XCTAssertGreaterThanOrEqual(gapsMs(requests)[2 - 1], 1_000, "sent before the draft's reset `t=1` had passed")
    }

    func testHeldRequestsWaitForTheInjectedSchedulerNotTheWallClock() async throws {
        let scheduler = ManualRetryScheduler()
        let pacer = RequestPacer(scheduler: scheduler)
        let api = StubbedAPI(baseURL: understudy.baseURL, pacer: pacer)
        let endpoint = Endpoint<[String: Int]>(.get, "rest/draft/limited")
        _ = try await api.send(endpoint)
        _ = try await api.send(endpoint)   // "r=0;t=1": the budget is spent for one second

        let third = Task { try await api.send(endpoint) }
        try await waitUntil { pacer.heldRequests == 1 }
        XCTAssertEqual(scheduler.requestedDelays, [1], "held until the reset the draft field announced")
        let sentWhileHeld = try await journal("/rest/draft/limited").count
        XCTAssertEqual(sentWhileHeld, 2, "nothing sent while held")

        scheduler.advance(by: 1)
        let answer = try await third.value
        XCTAssertEqual(answer, ["left": 1])
        let sent = try await journal("/rest/draft/limited").count
        XCTAssertEqual(sent, 3)
    }

    func testCancellingAHeldRequestEndsItAtOnce() async throws {
        let pacer = RequestPacer()
        let api = StubbedAPI(baseURL: understudy.baseURL, pacer: pacer)
        _ = try await api.call(.get, endpoint: "rest/draft/exhausted").response()   // "r=0;t=30"

        let held = Task { try await api.call(.get, endpoint: "rest/draft/exhausted").response() }
        try await waitUntil { pacer.heldRequests == 1 }
        let cancelledAt = Date()
        held.cancel()
        let result = await Result { try await held.value }
        XCTAssertTrue(result.failure is CancellationError, "\(String(describing: result.failure))")
        XCTAssertLessThan(Date().timeIntervalSince(cancelledAt), 10, "did not wait out the 30 s hold")
        XCTAssertEqual(pacer.heldRequests, 0)

        // Combine: cancelling the subscription takes the request out of the queue too.
        let cancellable = api.get(endpoint: "rest/draft/exhausted").sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        try await waitUntil { pacer.heldRequests == 1 }
        cancellable.cancel()
        XCTAssertEqual(pacer.heldRequests, 0)

        let sent = try await journal("/rest/draft/exhausted").count
        XCTAssertEqual(sent, 1, "neither held request was ever sent")
    }

    func testTheConcurrencyCapLimitsRequestsOnTheWire() async throws {
        let api = StubbedAPI(baseURL: understudy.baseURL, pacer: RequestPacer(maxConcurrentRequests: 2), connectionsPerHost: 8)
        let call = api.call(.get, endpoint: "rest/capped").catchHTTPErrors()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 { group.addTask { _ = try await call.response() } }
            try await group.waitForAll()
        }

        let requests = try await journal("/rest/capped")
        XCTAssertEqual(requests.count, 6)
        // Each answer takes 200 ms and at most two are on the wire: the fifth request cannot
        // arrive before two rounds of answers.
        XCTAssertGreaterThanOrEqual(requests[4].elapsedMs - requests[0].elapsedMs, 400)
    }

    func testA429ThatStillComesIsRetriedAndItsRetryAfterHoldsEveryone() async throws {
        // Another client spends the whole budget (3 per second) first.
        let other = StubbedAPI(baseURL: understudy.baseURL)
        for _ in 0..<3 {
            _ = try await other.call(.get, endpoint: "rest/limited") { $0.addingValue("other", forHTTPHeaderField: "X-Client") }
                .catchHTTPErrors().response()
        }

        let api = StubbedAPI(baseURL: understudy.baseURL, pacer: RequestPacer(), connectionsPerHost: 8)
        let asked = Locked<[TimeInterval]>([])
        let call = api.call(.get, endpoint: "rest/limited") { $0.addingValue("paced", forHTTPHeaderField: "X-Client") }
            .respondToRateLimiting(maxRetries: 5, maxSecondsToWait: 2, onRetry: { event in
                if let wait = (event.error as? HTTPClientError)?.retryAfter { asked.withLock { $0.append(wait) } }
            })
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await call.response() } }
            try await group.waitForAll()
        }

        let paced = try await journal("/rest/limited").filter { $0.header("X-Client") == "paced" }
        XCTAssertEqual(paced.filter(\.rateLimited).count, 1, "only the request that found the budget spent was refused")
        XCTAssertEqual(paced.filter { !$0.rateLimited }.count, 4)
        XCTAssertEqual(paced.first?.rateLimited, true)
        let retryAfter = try XCTUnwrap(asked.withLock { $0 }.first)
        for request in paced.dropFirst() {
            XCTAssertGreaterThanOrEqual(request.elapsedMs - paced[0].elapsedMs, retryAfter * 1_000 - 0.001,
                                        "no request went out before the 429's Retry-After had passed")
        }
    }
}
