import RESTNetworking
import UnderstudyTesting
import XCTest

/// `RequestPacer` against the daemon's enforced rate limit: every number here comes from the
/// daemon's journal (its arrival order, statuses and monotonic `elapsedMs`).
final class PacingIntegrationTests: DaemonTestCase {
    /// The workload: 40 GETs, 8 at a time (8 workers, 5 requests each), against a stub
    /// limited to 10 requests per second. Each call also has the reactive `respondToRateLimiting`,
    /// so both runs end with 40 successes; what differs is how many refusals it took. Each worker
    /// tags its requests (`X-Client`), and every retry is recorded with the refusal that caused it.
    @discardableResult
    private func runWorkload(_ api: StubbedAPI, path: String = "rest/paced", maxSecondsToWait: TimeInterval = 2)
        async throws -> [Int: [RetryEvent]]
    {
        let retries = Locked<[Int: [RetryEvent]]>([:])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                let call = api.call(.get, endpoint: path) {
                    $0.addingValue("\(worker)", forHTTPHeaderField: "X-Client")
                }
                .respondToRateLimiting(
                    maxRetries: 100, maxSecondsToWait: maxSecondsToWait,
                    onRetry: { event in
                        retries.withLock { $0[worker, default: []].append(event) }
                    })
                group.addTask {
                    for _ in 0..<5 {
                        let (_, response) = try await call.response()
                        XCTAssertEqual(response.statusCode, 200)
                    }
                }
            }
            try await group.waitForAll()
        }
        return retries.withLock { $0 }
    }

    private struct Outcome {
        var successes: Int
        var refusals: Int
        var spanMs: Double
    }

    private func outcome(_ path: String = "/rest/paced", refusal: Int = 429) async throws -> Outcome {
        let requests = try await journal(path)
        XCTAssertEqual(
            requests.filter { $0.status == refusal }.count, requests.filter(\.rateLimited).count,
            "every refusal is the rate limit's, with status \(refusal)")
        return Outcome(
            successes: requests.filter { $0.status == 200 }.count,
            refusals: requests.filter { $0.status == refusal }.count,
            spanMs: (requests.last?.elapsedMs ?? 0) - (requests.first?.elapsedMs ?? 0))
    }

    func testPacedFortyRequestsEightAtATimeNeverHearA429() async throws {
        let api = StubbedAPI(baseURL: understudy.baseURL, pacer: RequestPacer(), connectionsPerHost: 8)
        try await runWorkload(api)

        let result = try await outcome()
        print(
            "pacing: paced workload: \(result.successes) × 200, \(result.refusals) × 429, \(Int(result.spanMs)) ms first to last"
        )
        XCTAssertEqual(result.successes, 40)
        XCTAssertEqual(result.refusals, 0, "the pacer kept every request inside the limit")
        XCTAssertGreaterThanOrEqual(result.spanMs, 3_000, "40 requests at 10 per second cannot take less than 3 s")
    }

    func testUnpacedTheSameWorkloadIsRefused() async throws {
        let api = StubbedAPI(baseURL: understudy.baseURL, connectionsPerHost: 8)
        try await runWorkload(api)

        let result = try await outcome()
        print(
            "pacing: unpaced workload: \(result.successes) × 200, \(result.refusals) × 429, \(Int(result.spanMs)) ms first to last"
        )
        XCTAssertEqual(result.successes, 40)
        XCTAssertGreaterThan(result.refusals, 0, "8 clients at once overrun a limit of 10 per second")
    }

    // MARK: The workload in GitHub's dialect (403) and the X-RateLimit-* dialect (429)

    /// Paced: the pacer reads `X-RateLimit-Remaining` and the reset (an epoch for GitHub,
    /// seconds for `x-ratelimit`) from every 200 and holds requests so that none is refused.
    private func assertPacedWorkload(_ path: String, refusal: Int) async throws {
        let api = StubbedAPI(baseURL: understudy.baseURL, pacer: RequestPacer(), connectionsPerHost: 8)
        try await runWorkload(api, path: path, maxSecondsToWait: 3)

        let result = try await outcome("/" + path, refusal: refusal)
        print(
            "pacing: paced workload on \(path): \(result.successes) × 200, \(result.refusals) × \(refusal), \(Int(result.spanMs)) ms first to last"
        )
        XCTAssertEqual(result.successes, 40)
        XCTAssertEqual(result.refusals, 0, "the pacer kept every request inside the limit")
        XCTAssertGreaterThanOrEqual(result.spanMs, 3_000, "40 requests at 10 per second cannot take less than 3 s")
    }

    /// Unpaced: refusals come, and `respondToRateLimiting` waits each one out by what the refusal
    /// said (`expectedWait`, from its headers), checked against the journal's `elapsedMs` gaps
    /// between a worker's refused request and its retry.
    private func assertUnpacedWorkload(
        _ path: String, refusal: Int,
        expectedWait: (HTTPClientError) throws -> TimeInterval
    ) async throws {
        let api = StubbedAPI(baseURL: understudy.baseURL, connectionsPerHost: 8)
        let retries = try await runWorkload(api, path: path, maxSecondsToWait: 3)

        let result = try await outcome("/" + path, refusal: refusal)
        print(
            "pacing: unpaced workload on \(path): \(result.successes) × 200, \(result.refusals) × \(refusal), \(Int(result.spanMs)) ms first to last"
        )
        XCTAssertEqual(result.successes, 40)
        XCTAssertGreaterThan(result.refusals, 0, "8 clients at once overrun a limit of 10 per second")
        let requests = try await journal("/" + path)
        XCTAssertEqual(retries.values.map(\.count).reduce(0, +), result.refusals, "one retry per refusal")
        for worker in 0..<8 {
            let mine = requests.filter { $0.header("X-Client") == "\(worker)" }
            let events = retries[worker] ?? []
            XCTAssertEqual(mine.count, 5 + events.count, "worker \(worker): five requests plus one per retry")
            // The refused requests, in order, each followed by its retry.
            let refusedIndices = mine.indices.filter { mine[$0].rateLimited }
            XCTAssertEqual(refusedIndices.count, events.count)
            for (index, event) in zip(refusedIndices, events) {
                let error = try XCTUnwrap(event.error as? HTTPClientError)
                XCTAssertEqual(error.statusCode, refusal)
                XCTAssertTrue(error.isRateLimited)
                XCTAssertEqual(
                    event.delay, try expectedWait(error), accuracy: 0.000_1,
                    "worker \(worker): waited what the refusal said")
                XCTAssertGreaterThan(event.delay, 0)
                let gap = mine[index + 1].elapsedMs - mine[index].elapsedMs
                XCTAssertGreaterThanOrEqual(
                    gap, event.delay * 1_000 - 0.001, "worker \(worker) retried before the reset")
            }
        }
    }

    func testPacedGitHubDialectWorkloadNeverHearsA403() async throws {
        try await assertPacedWorkload("rest/paced/github", refusal: 403)
    }

    func testUnpacedGitHubDialectWorkloadWaitsOutEach403UntilItsEpochReset() async throws {
        try await assertUnpacedWorkload("rest/paced/github", refusal: 403) { error in
            // GitHub's 403: no Retry-After; `X-RateLimit-Reset` is an epoch, measured from `Date`.
            XCTAssertNil(error.retryAfter)
            XCTAssertEqual(error.headers["X-RateLimit-Remaining"], "0")
            let reset = try XCTUnwrap(error.headers["X-RateLimit-Reset"].flatMap(TimeInterval.init))
            let date = try XCTUnwrap(error.headers["Date"].flatMap { HTTPDate.parse($0) })
            return reset - date.timeIntervalSince1970
        }
    }

    func testPacedXRateLimitDialectWorkloadNeverHearsA429() async throws {
        try await assertPacedWorkload("rest/paced/x-ratelimit", refusal: 429)
    }

    func testUnpacedXRateLimitDialectWorkloadWaitsOutEach429ByItsResetSeconds() async throws {
        try await assertUnpacedWorkload("rest/paced/x-ratelimit", refusal: 429) { error in
            XCTAssertNil(error.retryAfter, "the stub sends no Retry-After: the wait is X-RateLimit-Reset's")
            return try XCTUnwrap(error.headers["X-RateLimit-Reset"].flatMap(TimeInterval.init))
        }
    }

    func testAPlain403IsForbiddenAndNeverRetried() async throws {
        // Combine, async, and a typed endpoint: the same verdict, one request each.
        let combine = await api.get(endpoint: "rest/forbidden").respondToRateLimiting(
            maxRetries: 3, maxSecondsToWait: 2
        ).awaitResult()
        XCTAssertThrowsError(try combine.get()) { error in
            XCTAssertEqual(error as? HTTPClientError, .forbidden)
            XCTAssertEqual((error as? HTTPClientError)?.isRateLimited, false)
            XCTAssertEqual(
                (error as? HTTPClientError)?.headers["x-ratelimit-remaining"], "57",
                "the error keeps the response's headers")
        }
        let async = await Result {
            try await api.call(.get, endpoint: "rest/forbidden").respondToRateLimiting(maxRetries: 3).response()
        }
        XCTAssertTrue(async.failure.map { $0.is(.forbidden) } ?? false, "\(String(describing: async.failure))")
        let typed = await Result {
            try await api.call(Endpoint<[String: String]>(.get, "rest/forbidden")).respondToRateLimiting(maxRetries: 3)
                .response()
        }
        do {
            _ = try typed.get()
            XCTFail("a 403 succeeded")
        } catch HTTPClientError.forbidden {
            // `catch` by name still works on the error that now carries headers.
        } catch {
            XCTFail("\(error)")
        }
        let requests = try await journal("/rest/forbidden")
        XCTAssertEqual(requests.count, 3, "one request per call, no retries")
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
        _ = try await api.send(endpoint)  // "r=0;t=1": the budget is spent for one second

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
        _ = try await api.call(.get, endpoint: "rest/draft/exhausted").response()  // "r=0;t=30"

        let held = Task { try await api.call(.get, endpoint: "rest/draft/exhausted").response() }
        try await waitUntil { pacer.heldRequests == 1 }
        let cancelledAt = Date()
        held.cancel()
        let result = await Result { try await held.value }
        XCTAssertTrue(result.failure is CancellationError, "\(String(describing: result.failure))")
        XCTAssertLessThan(Date().timeIntervalSince(cancelledAt), 10, "did not wait out the 30 s hold")
        XCTAssertEqual(pacer.heldRequests, 0)

        // Combine: cancelling the subscription takes the request out of the queue too.
        let cancellable = api.get(endpoint: "rest/draft/exhausted").sink(
            receiveCompletion: { _ in }, receiveValue: { _ in })
        try await waitUntil { pacer.heldRequests == 1 }
        cancellable.cancel()
        XCTAssertEqual(pacer.heldRequests, 0)

        let sent = try await journal("/rest/draft/exhausted").count
        XCTAssertEqual(sent, 1, "neither held request was ever sent")
    }

    func testTheConcurrencyCapLimitsRequestsOnTheWire() async throws {
        let api = StubbedAPI(
            baseURL: understudy.baseURL, pacer: RequestPacer(maxConcurrentRequests: 2), connectionsPerHost: 8)
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
            _ = try await other.call(.get, endpoint: "rest/limited") {
                $0.addingValue("other", forHTTPHeaderField: "X-Client")
            }
            .catchHTTPErrors().response()
        }

        let api = StubbedAPI(baseURL: understudy.baseURL, pacer: RequestPacer(), connectionsPerHost: 8)
        let asked = Locked<[TimeInterval]>([])
        let call = api.call(.get, endpoint: "rest/limited") { $0.addingValue("paced", forHTTPHeaderField: "X-Client") }
            .respondToRateLimiting(
                maxRetries: 5, maxSecondsToWait: 2,
                onRetry: { event in
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
            XCTAssertGreaterThanOrEqual(
                request.elapsedMs - paced[0].elapsedMs, retryAfter * 1_000 - 0.001,
                "no request went out before the 429's Retry-After had passed")
        }
    }
}
