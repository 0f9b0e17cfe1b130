import RESTNetworking
import UnderstudyTesting
import XCTest

/// The seed layer's own rate-limit tests (the Combine REST layer RESTNetworking grew from), ported
/// from in-process URL stubs to the daemon, with the seed's error patterns written as the seed
/// wrote them: `HTTPClientError.tooManyRequests(.some(let retryAfter))` matched against an
/// `any HTTPError`, `guard case .tooManyRequests(let retryAfter) = err` on an `HTTPClientError`,
/// and `.failure(HTTPServerError.serviceUnavailable(retryAfter?))`. Code written against the seed
/// is what users bring, so these must compile and match, while the response headers the errors
/// keep (wave 3's rate-limit dialects) stay reachable.
///
/// Each test installs its own stubs on its session; a request no stub expects fails the test
/// when it ends (what the seed's catch-all stub did).
final class SeedPatternTests: DaemonTestCase {
    /// A post as the seed's tests served it.
    private static let postsJSON = #"[{"userId":1,"id":1,"title":"sunt aut facere","body":"quia et suscipit"}]"#

    /// Installs one stub answering `GET path` with `responses` in turn, then nothing: a request
    /// after the last goes unmatched and fails the test.
    private func stub(_ path: String, _ responses: [String]) async throws {
        try await understudy.install(
            json: """
                {"stubs": [{"id": "seed\(path.replacingOccurrences(of: "/", with: "-"))",
                  "request": {"method": "GET", "path": "\(path)"},
                  "responses": [\(responses.joined(separator: ","))],
                  "afterLast": "exhaust"}]}
                """)
    }

    func testCatchingTooManyRequests() async throws {
        try await stub("/seed/too-many", [#"{"status": 429, "headers": {"Retry-After": "1.5"}}"#])
        let error = HTTPClientError.tooManyRequests()

        let result = await api.get(endpoint: "seed/too-many").catchHTTPErrors().awaitResult()

        guard case .failure(let failure) = result else {
            return XCTFail("Publisher succeeded, expected failure with HTTPError")
        }
        guard let actualError = failure as? (any HTTPError) else {
            return XCTFail("Error: \(failure) thrown by publisher was not an HTTPError")
        }
        XCTAssertEqual(actualError.statusCode, error.statusCode)
        if case HTTPClientError.tooManyRequests(.some(let retryAfter)) = actualError {
            XCTAssertEqual(retryAfter.converted(to: .seconds).value, 1.5)
            XCTAssertEqual(retryAfter, 1.5, "a wait compares equal to its seconds")
            XCTAssertEqual(retryAfter.headers["retry-after"], "1.5", "the response's headers ride along")
        } else {
            XCTFail("RetryAfter value not in error.")
        }
        XCTAssertEqual(actualError.retryAfter, 1.5)
        XCTAssertEqual(actualError.headers["Retry-After"], "1.5")
    }

    func testRetryAfterServerSpecifiedTime() async throws {
        // A random wait, as the seed drew it, written to the millisecond.
        let retryAfter = (Double.random(in: 0.100...0.240) * 1_000).rounded() / 1_000
        try await stub(
            "/seed/posts",
            [
                #"{"status": 429, "headers": {"Retry-After": "\#(retryAfter)"}}"#,
                #"{"status": 200, "body": "\#(Self.postsJSON.replacingOccurrences(of: "\"", with: "\\\""))"}"#,
            ])

        let value = try await api.get(endpoint: "seed/posts").seedRespondToRateLimiting().awaitResult().get()

        XCTAssertEqual(value.response.statusCode, 200)
        XCTAssertEqual(String(decoding: value.data, as: UTF8.self), Self.postsJSON)
        let requests = try await journal("/seed/posts")
        XCTAssertEqual(requests.map(\.status), [429, 200])
        // The journal's clock, not the test's: the retry came no sooner than the wait asked.
        XCTAssertGreaterThanOrEqual(
            try XCTUnwrap(gapsMs(requests).first), retryAfter * 1_000 - 1,
            "retried before Retry-After: \(retryAfter) had passed")
    }

    func testRespondToRateLimitingOnlyRetriesOnce() async throws {
        let retryAfter = (Double.random(in: 0.100...0.300) * 1_000).rounded() / 1_000
        let refusal = #"{"status": 429, "headers": {"Retry-After": "\#(retryAfter)"}}"#
        // Two refusals and nothing more: a third request would go unmatched and fail the test.
        try await stub("/seed/refused", [refusal, refusal])

        let publisherRetries = Locked(0)
        let result = await api.get(endpoint: "seed/refused")
            .map { val in
                publisherRetries.withLock { $0 += 1 }
                return val
            }
            .seedRespondToRateLimiting(maxSecondsToWait: 0)
            .awaitResult()

        XCTAssertThrowsError(try result.get()) { error in
            guard let actualError = error as? (any HTTPError) else {
                return XCTFail("Error: \(error) thrown by publisher was not an HTTPError")
            }
            XCTAssertEqual(actualError.statusCode, HTTPClientError.tooManyRequests().statusCode)
        }
        XCTAssertEqual(publisherRetries.withLock { $0 }, 2)
        let requests = try await journal("/seed/refused")
        XCTAssertEqual(requests.map(\.status), [429, 429], "exactly one retry")
    }

    func testRateLimitingShouldDoNothingUnlessCorrectStatusCodeIsGiven() async throws {
        try await stub(
            "/seed/fine",
            [#"{"status": 200, "body": "\#(Self.postsJSON.replacingOccurrences(of: "\"", with: "\\\""))"}"#])

        let value = try await api.get(endpoint: "seed/fine").seedRespondToRateLimiting().awaitResult().get()

        XCTAssertEqual(value.response.statusCode, 200)
        XCTAssertEqual(String(decoding: value.data, as: UTF8.self), Self.postsJSON)
        let requests = try await journal("/seed/fine")
        XCTAssertEqual(requests.count, 1)
    }

    func testRateLimitingDoesNotRetryIfADifferentErrorIsThrown() async throws {
        try await stub("/seed/unauthorized", [#"{"status": 401}"#])

        let result = await api.get(endpoint: "seed/unauthorized").seedRespondToRateLimiting().awaitResult()

        XCTAssertThrowsError(try result.get()) {
            XCTAssertEqual($0 as? HTTPClientError, .unauthorized)
        }
        let requests = try await journal("/seed/unauthorized")
        XCTAssertEqual(requests.count, 1)
    }

    /// The seed's 503 pattern, on a `Result`'s failure: a 503 that asked for a wait binds it; one
    /// that asked for none is `.serviceUnavailable(nil)`.
    func testServiceUnavailableBindsItsRetryAfter() async throws {
        try await stub(
            "/seed/unavailable",
            [#"{"status": 503, "headers": {"Retry-After": "2", "Via": "1.1 gateway"}}"#, #"{"status": 503}"#])

        let first = await api.get(endpoint: "seed/unavailable").catchHTTPErrors().awaitResult()
        switch first {
        case let .failure(HTTPServerError.serviceUnavailable(retryAfter?)):
            XCTAssertEqual(retryAfter.converted(to: .milliseconds).value, 2_000)
            XCTAssertEqual(retryAfter.headers["via"], "1.1 gateway")
        default:
            XCTFail("expected a 503 with its Retry-After, got \(first)")
        }
        let second = await api.get(endpoint: "seed/unavailable").catchHTTPErrors().awaitResult()
        switch second {
        case let .failure(HTTPServerError.serviceUnavailable(retryAfter?)):
            XCTFail("a 503 without Retry-After asked for no wait, yet bound \(retryAfter)")
        case .failure(HTTPServerError.serviceUnavailable(nil)):
            break
        default:
            XCTFail("expected a 503, got \(second)")
        }
    }

    /// A 429 that names its wait only in rate-limit fields (no `Retry-After`): the seed's pattern
    /// binds that wait, and the headers wave 3 reads the dialects from are there beside it.
    func testATooManyRequestsWithOnlyRateLimitFieldsBindsTheirResetAndKeepsTheHeaders() async throws {
        try await stub(
            "/seed/dialect",
            [
                #"{"status": 429, "headers": {"X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "3"}}"#
            ])

        let result = await api.get(endpoint: "seed/dialect").catchHTTPErrors().awaitResult()
        let failure = try XCTUnwrap(result.failure as? HTTPClientError, "\(result)")

        guard case .tooManyRequests(let retryAfter) = failure else {
            return XCTFail("expected a 429, got \(failure)")
        }
        let wait = try XCTUnwrap(retryAfter, "the reset the fields announced is the wait asked for")
        XCTAssertEqual(wait.converted(to: .seconds).value, 3)
        XCTAssertEqual(wait.source, .rateLimitReset)
        XCTAssertEqual(wait.headers["X-RateLimit-Remaining"], "0")
        XCTAssertEqual(failure.headers["X-RateLimit-Reset"], "3")
        XCTAssertNil(failure.retryAfter, "no Retry-After was sent")
        XCTAssertEqual(failure.rateLimitWait, 3)
        XCTAssertTrue(failure.isRateLimited)
    }
}

extension Publisher where Output == HTTPResponseOutput, Failure == any Error {
    /// The seed layer's rate-limit operator, ported: on a 429, wait what it asked for when that is
    /// under `maxSecondsToWait` (else `maxSecondsToWait`), then send the request once more.
    /// Written with the seed's `guard case` so the pattern is compiled as its users write it.
    fileprivate func seedRespondToRateLimiting(maxSecondsToWait: Double = 1) -> AnyPublisher<Output, Failure> {
        catchHTTPErrors()
            .tryCatch(HTTPClientError.tooManyRequests()) { err -> AnyPublisher<Output, Failure> in
                guard case .tooManyRequests(let retryAfter) = err else {
                    throw err
                }
                var delayInSeconds = maxSecondsToWait
                if let serverDelay = retryAfter?.converted(to: .seconds).value, serverDelay < maxSecondsToWait {
                    delayInSeconds = serverDelay
                }
                return Just(())
                    .delay(for: .seconds(delayInSeconds), scheduler: Self.seedScheduler)
                    .setFailureType(to: (any Error).self)
                    .flatMap { _ in self.catchHTTPErrors() }
                    .eraseToAnyPublisher()
            }
            .eraseToAnyPublisher()
    }

    // A serial queue: `delay` schedules the value and the completion separately, and on a
    // concurrent queue (the seed used a global one) the completion can overtake the value, ending
    // the `flatMap` before the retry is sent.
    #if canImport(Combine)
    private static var seedScheduler: DispatchQueue { DispatchQueue(label: "SeedPatternTests.delay") }
    #else
    private static var seedScheduler: DispatchQueue.OCombine { DispatchQueue(label: "SeedPatternTests.delay").ocombine }
    #endif
}
