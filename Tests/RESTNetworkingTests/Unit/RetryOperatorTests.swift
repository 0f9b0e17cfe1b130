import RESTNetworking
import XCTest

/// The Combine operators and the async API driven by a `ManualRetryScheduler`: every delay is
/// read from the scheduler, nothing waits in real time.
final class RetryOperatorTests: XCTestCase {
    private typealias R = ScriptedExchanges

    func testCombineRateLimitRetriesAfterTheAskedDelay() async throws {
        let scheduler = ManualRetryScheduler()
        let script = R([R.response(429, headers: ["Retry-After": "0.75"]), R.response(200, body: "ok")])
        let box = ResultBox<HTTPResponseOutput>()
        let cancellable = script.publisher().respondToRateLimiting(
            maxRetries: 1, maxSecondsToWait: 1, scheduler: scheduler
        )
        .sink(
            receiveCompletion: { if case let .failure(e) = $0 { box.finish(.failure(e)) } },
            receiveValue: { box.finish(.success($0)) })
        XCTAssertEqual(script.attempts, 1)
        XCTAssertEqual(scheduler.requestedDelays, [0.75])
        scheduler.advance(by: 0.74)
        XCTAssertEqual(script.attempts, 1, "must not retry before Retry-After has passed")
        scheduler.advance(by: 0.01)
        let output = try await box.wait(timeout: 5).get()
        XCTAssertEqual(output.response.statusCode, 200)
        XCTAssertEqual(String(decoding: output.data, as: UTF8.self), "ok")
        XCTAssertEqual(script.attempts, 2)
        cancellable.cancel()
    }

    func testCombineRateLimitFailsAtOnceWhenAskedToWaitTooLong() async {
        let scheduler = ManualRetryScheduler()
        let script = R([R.response(429, headers: ["Retry-After": "5"]), R.response(200)])
        let result = await script.publisher().respondToRateLimiting(
            maxRetries: 3, maxSecondsToWait: 1, scheduler: scheduler
        ).awaitResult()
        XCTAssertThrowsError(try result.get()) {
            XCTAssertEqual(($0 as? HTTPClientError)?.statusCode, 429)
            XCTAssertEqual(($0 as? HTTPClientError)?.retryAfter, 5)
        }
        XCTAssertEqual(script.attempts, 1)
        XCTAssertEqual(scheduler.requestedDelays, [])
    }

    func testCombineRateLimitLeavesA401Alone() async {
        let script = R([R.response(401), R.response(200)])
        let result = await script.publisher().respondToRateLimiting(maxRetries: 3, scheduler: ManualRetryScheduler())
            .awaitResult()
        XCTAssertThrowsError(try result.get()) { XCTAssertEqual($0 as? HTTPClientError, .unauthorized) }
        XCTAssertEqual(script.attempts, 1)
    }

    func testCancellingDuringTheDelaySendsNothingMore() throws {
        let scheduler = ManualRetryScheduler()
        let script = R([R.response(429, headers: ["Retry-After": "0.5"]), R.response(200)])
        let received = Locked<[String]>([])
        let cancellable = script.publisher().respondToRateLimiting(maxRetries: 1, scheduler: scheduler)
            .sink(
                receiveCompletion: { c in received.withLock { $0.append("completion \(c)") } },
                receiveValue: { _ in received.withLock { $0.append("value") } })
        XCTAssertEqual(scheduler.pendingCount, 1)
        cancellable.cancel()
        XCTAssertEqual(scheduler.pendingCount, 0, "cancelling must cancel the timer")
        scheduler.advance(by: 10)
        XCTAssertEqual(script.attempts, 1)
        XCTAssertEqual(received.withLock { $0 }, [])
    }

    func testCancellingWhileTheRetryIsBeingScheduledSendsNothingMore() {
        // The window a cancel from another thread can hit: the policy has decided to retry but the
        // delay is not subscribed yet. Cancelling from `onRetry` lands exactly there, every time.
        let scheduler = ManualRetryScheduler()
        let script = R([R.response(503), R.response(200)])
        let received = Locked<[String]>([])
        let sink = Subscribers.Sink<HTTPResponseOutput, any Error>(
            receiveCompletion: { c in received.withLock { $0.append("completion \(c)") } },
            receiveValue: { _ in received.withLock { $0.append("value") } })
        let sinkBox = Locked<Subscribers.Sink<HTTPResponseOutput, any Error>?>(sink)
        script.publisher()
            .retryOnFailure(
                policy: RetryPolicy(maxAttempts: 3), scheduler: scheduler,
                onRetry: { _ in
                    sinkBox.withLock { $0 }?.cancel()
                }
            )
            .subscribe(sink)

        scheduler.advance(by: 10)
        XCTAssertEqual(script.attempts, 1, "a retry was sent after cancellation")
        XCTAssertEqual(received.withLock { $0 }, [])
    }

    func testRetryOnFailureUsesBoundedFullJitterAndStopsAtMaxAttempts() async throws {
        let scheduler = ManualRetryScheduler()
        let policy = RetryPolicy(maxAttempts: 4, baseDelay: 0.1, maxDelay: 0.3, totalBudget: 10)
        let script = R([R.response(502)])
        let box = ResultBox<HTTPResponseOutput>()
        let cancellable = script.publisher().retryOnFailure(policy: policy, scheduler: scheduler)
            .sink(
                receiveCompletion: { if case let .failure(e) = $0 { box.finish(.failure(e)) } },
                receiveValue: { box.finish(.success($0)) })
        for _ in 0..<3 { scheduler.advance(by: 0.3) }
        let result = await box.wait(timeout: 5)
        XCTAssertThrowsError(try result.get()) { XCTAssertEqual($0 as? HTTPServerError, .badGateway) }
        XCTAssertEqual(script.attempts, 4)
        let delays = scheduler.requestedDelays
        XCTAssertEqual(delays.count, 3)
        for (retry, delay) in delays.enumerated() {
            XCTAssertGreaterThanOrEqual(delay, 0)
            XCTAssertLessThanOrEqual(delay, policy.backoffCap(forRetry: retry))
        }
        cancellable.cancel()
    }

    func testRetryOnFailureDoesNotRetryPOSTByDefault() async {
        let script = R([R.response(503), R.response(200)])
        let result = await script.publisher(method: .post).retryOnFailure(scheduler: ManualRetryScheduler())
            .awaitResult()
        XCTAssertThrowsError(try result.get()) {
            XCTAssertEqual(($0 as? HTTPServerError)?.statusCode, 503)
            XCTAssertEqual(($0 as? HTTPServerError)?.retryAfter, nil)
        }
        XCTAssertEqual(script.attempts, 1)
    }

    func testMethodSurvivesChainingOperators() {
        let chained = R([R.response(200)]).publisher(method: .put).catchHTTPErrors().respondToRateLimiting()
        XCTAssertEqual(chained.method, .put)
    }

    // MARK: async/await

    func testAsyncRateLimitRetriesAfterTheAskedDelay() async throws {
        let scheduler = ManualRetryScheduler()
        let script = R([R.response(429, headers: ["Retry-After": "2"]), R.response(200, body: "async")])
        let task = Task {
            try await script.call().respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 3, scheduler: scheduler)
                .response()
        }
        try await waitUntil { scheduler.pendingCount == 1 }
        XCTAssertEqual(scheduler.requestedDelays, [2])
        XCTAssertEqual(script.attempts, 1)
        scheduler.advance(by: 2)
        let output = try await task.value
        XCTAssertEqual(String(decoding: output.data, as: UTF8.self), "async")
        XCTAssertEqual(script.attempts, 2)
    }

    func testAsyncAndCombineMakeTheSameDecisions() async {
        let combineScript = R([R.response(429, headers: ["Retry-After": "9"])])
        let asyncScript = R([R.response(429, headers: ["Retry-After": "9"])])
        let combine = await combineScript.publisher().respondToRateLimiting(maxSecondsToWait: 1).awaitResult()
        let asyncResult = await Result(catching: {
            try await asyncScript.call().respondToRateLimiting(maxSecondsToWait: 1).response()
        })
        XCTAssertEqual((combine.failure as? HTTPClientError)?.statusCode, 429)
        XCTAssertEqual((combine.failure as? HTTPClientError)?.retryAfter, 9)
        XCTAssertEqual((asyncResult.failure as? HTTPClientError)?.statusCode, 429)
        XCTAssertEqual((asyncResult.failure as? HTTPClientError)?.retryAfter, 9)
        XCTAssertEqual(combineScript.attempts, asyncScript.attempts)
    }

    func testAsyncCancellationDuringTheDelayStopsPromptly() async throws {
        let scheduler = ManualRetryScheduler()
        let script = R([R.response(503, headers: ["Retry-After": "30"]), R.response(200)])
        let policy = RetryPolicy(maxAttempts: 3, totalBudget: 60)
        let task = Task { try await script.call().retryOnFailure(policy: policy, scheduler: scheduler).response() }
        try await waitUntil { scheduler.pendingCount == 1 }
        task.cancel()
        let result = await task.result
        XCTAssertTrue(result.failure is CancellationError, "\(String(describing: result.failure))")
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(by: 60)
        XCTAssertEqual(script.attempts, 1)
    }
}

extension Result {
    init(catching body: () async throws -> Success) async where Failure == any Error {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }

    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}

/// A tiny lock-guarded box for collecting events from other threads in tests.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
