import RESTNetworking
import UnderstudyTesting
import XCTest

/// Cancelling while a retry waits out `Retry-After: 1`: nothing more reaches the daemon.
final class CancellationIntegrationTests: DaemonTestCase {
    private let path = "/rest/retry-after/cancel"

    /// Waits until the daemon's clock is past the moment the retry would have been sent (first
    /// request + 1 s, plus margin), then checks the journal still holds only the first request.
    private func assertNoRetryArrives() async throws {
        let firstEntry = try await journal(path).first
        let first = try XCTUnwrap(firstEntry)
        // Time is read from the daemon's clock, the one the journal uses, not the test's.
        var now = first.elapsedMs
        while now < first.elapsedMs + 1_300 {
            try await Task.sleep(nanoseconds: 50_000_000)
            now = try await clockMs(after: first)
        }
        let requestCount = try await journal(path).count
        XCTAssertEqual(requestCount, 1, "a request reached the daemon after cancellation")
    }

    /// The daemon's current `elapsedMs`: admin calls are not journaled, so send a (matched)
    /// probe request and read its entry.
    private func clockMs(after first: RecordedRequest) async throws -> Double {
        _ = try await api.call(.get, endpoint: "rest/limited").response()
        let latest = try await understudy.admin.requests(path: "/rest/limited").last
        return latest?.elapsedMs ?? first.elapsedMs
    }

    func testCancellingAPublisherDuringTheRetryAfterWaitSendsNothingMore() async throws {
        let retryScheduled = ResultBox<TimeInterval>()
        let events = Locked<[String]>([])
        let cancellable = api.get(endpoint: "rest/retry-after/cancel")
            .respondToRateLimiting(
                maxRetries: 1, maxSecondsToWait: 2, onRetry: { retryScheduled.finish(.success($0.delay)) }
            )
            .sink(
                receiveCompletion: { c in events.withLock { $0.append("completion \(c)") } },
                receiveValue: { _ in events.withLock { $0.append("value") } })

        let scheduledDelay = try await retryScheduled.wait(timeout: 10).get()
        XCTAssertEqual(scheduledDelay, 1)
        cancellable.cancel()

        try await assertNoRetryArrives()
        XCTAssertEqual(events.withLock { $0 }, [], "a cancelled subscription receives nothing")
    }

    func testCancellingAnAsyncCallDuringTheRetryAfterWaitEndsItPromptly() async throws {
        let retryScheduled = ResultBox<TimeInterval>()
        let call = api.call(.get, endpoint: "rest/retry-after/cancel")
            .respondToRateLimiting(
                maxRetries: 1, maxSecondsToWait: 2, onRetry: { retryScheduled.finish(.success($0.delay)) })
        let task = Task { try await call.response() }

        let scheduledDelay = try await retryScheduled.wait(timeout: 10).get()
        XCTAssertEqual(scheduledDelay, 1)
        let cancelledAt = Date()
        task.cancel()
        let result = await task.result
        XCTAssertTrue(result.failure is CancellationError, "\(String(describing: result.failure))")
        // Ended by the cancellation, not by the 1 s timer running out (generous for a loaded machine).
        XCTAssertLessThan(Date().timeIntervalSince(cancelledAt), 0.9)

        try await assertNoRetryArrives()
    }

    func testCancellingAnAsyncCallWhileItWaitsForTheResponseThrowsCancellationError() async throws {
        let call = api.call(.get, endpoint: "rest/slow").retryOnFailure()
        let task = Task { try await call.response() }
        // Received and waiting out its delay: a delayed request is journaled once it is answered
        // (or its client leaves), so its arrival shows in `pending`.
        var pending = 0
        for _ in 0..<2000 {  // at most ten seconds
            pending = try await understudy.admin.health().pending ?? 0
            if pending == 1 { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertEqual(pending, 1, "the request reached the daemon")

        let cancelledAt = Date()
        task.cancel()
        let result = await task.result
        XCTAssertTrue(result.failure is CancellationError, "\(String(describing: result.failure))")
        XCTAssertLessThan(Date().timeIntervalSince(cancelledAt), 1.5, "ended by cancellation, not by the 2 s response")
        // The entry is written when the daemon sees the client leave, which can come after the
        // client's own cancellation returns: wait for nothing to be pending before counting.
        for _ in 0..<2000 {  // at most ten seconds
            pending = try await understudy.admin.health().pending ?? 0
            if pending == 0 { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertEqual(pending, 0, "the cancelled request was journaled")
        let requests = try await journal("/rest/slow")
        XCTAssertEqual(requests.count, 1, "a cancelled call is not retried")
        // The transport closed the connection (on either transport), and the daemon saw it go.
        XCTAssertEqual(requests.first?.outcome, .clientGone, "\(requests)")
    }
}
