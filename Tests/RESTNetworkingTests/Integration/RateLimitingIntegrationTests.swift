import RESTNetworking
import UnderstudyTesting
import XCTest

/// `respondToRateLimiting` against the real daemon: results from the client, timing from the
/// daemon's journal (`elapsedMs`, its monotonic clock), never from the test's clock.
final class RateLimitingIntegrationTests: DaemonTestCase {
    func testFractionalRetryAfterThenSuccess() async throws {
        let result = await api.get(endpoint: "rest/retry-after/fractional") { $0.receivingJSON() }
            .respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 2)
            .awaitResult()

        let output = try result.get()
        XCTAssertEqual(output.response.statusCode, 200)
        XCTAssertEqual(String(decoding: output.data, as: UTF8.self), #"[{"id":1,"title":"hello"}]"#)
        let requests = try await journal("/rest/retry-after/fractional")
        XCTAssertEqual(requests.map(\.status), [429, 200])
        XCTAssertEqual(requests.map(\.responseIndex), [0, 1])
        XCTAssertGreaterThanOrEqual(
            try XCTUnwrap(gapsMs(requests).first), 300, "retried before Retry-After: 0.3 had passed")
    }

    func testIntegerRetryAfterThenSuccessThroughAsyncAwait() async throws {
        let (data, response) = try await api.call(.get, endpoint: "rest/retry-after/integer")
            .respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 2)
            .response()

        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"[{"id":2,"title":"integer"}]"#)
        let requests = try await journal("/rest/retry-after/integer")
        XCTAssertEqual(requests.map(\.status), [429, 200])
        XCTAssertGreaterThanOrEqual(
            try XCTUnwrap(gapsMs(requests).first), 1_000, "retried before Retry-After: 1 had passed")
    }

    func testHTTPDateRetryAfterThenSuccess() async throws {
        // Keep the raw 429 so the test knows exactly which instant the server named.
        let responses = Locked<[HTTPURLResponse]>([])
        let result = await api.get(endpoint: "rest/retry-after/http-date")
            .handleEvents(receiveOutput: { output in responses.withLock { $0.append(output.response) } })
            .respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 5)
            .awaitResult()

        XCTAssertEqual(try result.get().response.statusCode, 200)
        let header = try XCTUnwrap(responses.withLock { $0.first }?.value(forHTTPHeaderField: "Retry-After"))
        let retryAt = try XCTUnwrap(HTTPDate.parse(header), "Retry-After `\(header)` is not an HTTP-date")
        let requests = try await journal("/rest/retry-after/http-date")
        XCTAssertEqual(requests.map(\.status), [429, 200])
        let firstArrival = try XCTUnwrap(requests[0].date)
        let secondArrival = try XCTUnwrap(requests[1].date)
        // The journal's wall-clock times have millisecond precision; allow for that rounding only.
        XCTAssertGreaterThanOrEqual(
            secondArrival.timeIntervalSince(retryAt), -0.001,
            "second request arrived before the Retry-After date \(header)")
        let askedMs = retryAt.timeIntervalSince(firstArrival) * 1_000
        XCTAssertGreaterThanOrEqual(gapsMs(requests)[0], askedMs - 1)
    }

    func testTwo429sWithOneRetryFailWithTooManyRequestsAfterExactlyTwoRequests() async throws {
        let result = await api.get(endpoint: "rest/retry-after/twice")
            .respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 1)
            .awaitResult()

        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertEqual((error as? HTTPClientError)?.statusCode, 429)
            XCTAssertEqual((error as? HTTPClientError)?.retryAfter, 0.2)
            XCTAssertEqual((error as? any HTTPError)?.statusCode, 429)
        }
        let requests = try await journal("/rest/retry-after/twice")
        XCTAssertEqual(requests.map(\.status), [429, 429], "exactly two requests, no third")
        XCTAssertGreaterThanOrEqual(gapsMs(requests)[0], 200)
        let stub = try await understudy.admin.stub(id: "rest-429-twice")
        XCTAssertEqual(stub?.timesServed, 2)
        XCTAssertEqual(stub?.exhausted, true)
    }

    func testRetryAfterBeyondTheMaximumFailsAtOnceWithOneRequest() async throws {
        let started = Date()
        let result = await api.get(endpoint: "rest/retry-after/too-long")
            .respondToRateLimiting(maxRetries: 3, maxSecondsToWait: 2)
            .awaitResult()

        XCTAssertThrowsError(try result.get()) {
            XCTAssertEqual(($0 as? HTTPClientError)?.statusCode, 429)
            XCTAssertEqual(($0 as? HTTPClientError)?.retryAfter, 30)
        }
        // Generous: the point is that it did not wait anywhere near the 30 s asked, nor retried.
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        let requests = try await journal("/rest/retry-after/too-long")
        XCTAssertEqual(requests.count, 1)
    }

    func testGitHubs403IsWaitedOutAlikeThroughCombineAsyncAndATypedEndpoint() async throws {
        let waits = Locked<[TimeInterval]>([])
        let expected = Locked<[TimeInterval]>([])
        let onRetry: RetryObserver = { event in
            waits.withLock { $0.append(event.delay) }
            // What the 403 said: its epoch reset minus its Date.
            if let error = event.error as? HTTPClientError, error.statusCode == 403,
                let reset = error.headers["X-RateLimit-Reset"].flatMap(TimeInterval.init),
                let date = error.headers["Date"].flatMap({ HTTPDate.parse($0) })
            {
                expected.withLock { $0.append(reset - date.timeIntervalSince1970) }
            }
        }
        let primed = try await api.call(.get, endpoint: "rest/github/limited").catchHTTPErrors().response()
        XCTAssertEqual(primed.response.statusCode, 200, "the one request of this second")

        let combine = await api.get(endpoint: "rest/github/limited")
            .respondToRateLimiting(maxRetries: 3, maxSecondsToWait: 3, onRetry: onRetry).awaitResult()
        XCTAssertEqual(try combine.get().response.statusCode, 200)
        let async = try await api.call(.get, endpoint: "rest/github/limited")
            .respondToRateLimiting(maxRetries: 3, maxSecondsToWait: 3, onRetry: onRetry).response()
        XCTAssertEqual(async.response.statusCode, 200)
        let typed = try await api.call(Endpoint<[String: Bool]>(.get, "rest/github/limited"))
            .respondToRateLimiting(maxRetries: 3, maxSecondsToWait: 3, onRetry: onRetry).response()
        XCTAssertEqual(typed.0, ["ok": true])

        let requests = try await journal("/rest/github/limited")
        XCTAssertEqual(
            requests.map(\.status), [200, 403, 200, 403, 200, 403, 200], "each API refused once, then let through")
        let asked = waits.withLock { $0 }
        XCTAssertEqual(asked, expected.withLock { $0 }, "each waited what its 403 said")
        XCTAssertEqual(asked.count, 3)
        for (retry, wait) in zip([2, 4, 6], asked) {
            XCTAssertGreaterThan(wait, 0)
            XCTAssertGreaterThanOrEqual(
                requests[retry].elapsedMs - requests[retry - 1].elapsedMs, wait * 1_000 - 0.001,
                "retried before the epoch reset")
        }
    }

    func testA401IsNotTheRateLimitersBusiness() async throws {
        let result = await api.get(endpoint: "rest/auth/always-401")
            .respondToRateLimiting(maxRetries: 3, maxSecondsToWait: 1)
            .awaitResult()

        XCTAssertThrowsError(try result.get()) { XCTAssertEqual($0 as? HTTPClientError, .unauthorized) }
        let requests = try await journal("/rest/auth/always-401")
        XCTAssertEqual(requests.count, 1)
    }

    func testBurstAgainstASimulatedRateLimitAllSucceedAndNoneRetriesEarly() async throws {
        let clients = 10
        let waits = Locked<[Int: [TimeInterval]]>([:])
        let calls = (0..<clients).map { client in
            api.call(.get, endpoint: "rest/limited") { $0.addingValue("\(client)", forHTTPHeaderField: "X-Client") }
                .respondToRateLimiting(
                    maxRetries: 20, maxSecondsToWait: 2,
                    onRetry: { event in
                        // What the server asked for, as its 429 said — not what the client chose to wait.
                        guard let retryAfter = (event.error as? HTTPClientError)?.retryAfter else { return }
                        waits.withLock { $0[client, default: []].append(retryAfter) }
                    })
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for call in calls {
                group.addTask { try await call.response().response.statusCode }
            }
            for try await status in group {
                XCTAssertEqual(status, 200)
            }
        }

        let requests = try await journal("/rest/limited")
        XCTAssertEqual(requests.filter { !$0.rateLimited }.count, clients, "each client got through exactly once")
        XCTAssertGreaterThanOrEqual(
            requests.filter(\.rateLimited).count, clients - 3, "a burst of 10 over a limit of 3")
        let asked = waits.withLock { $0 }
        for client in 0..<clients {
            let mine = requests.filter { $0.header("X-Client") == "\(client)" }
            let delays = asked[client] ?? []
            XCTAssertEqual(mine.count, delays.count + 1, "client \(client): one request per retry, plus the first")
            XCTAssertEqual(mine.last?.rateLimited, false)
            for (gap, delay) in zip(gapsMs(mine), delays) {
                // Each retry waited at least the Retry-After its 429 carried (rounding to 1 µs aside).
                XCTAssertGreaterThanOrEqual(gap, delay * 1_000 - 0.001, "client \(client) retried early")
            }
        }
    }
}
