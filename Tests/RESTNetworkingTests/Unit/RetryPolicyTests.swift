import RESTNetworking
import XCTest

final class RetryPolicyTests: XCTestCase {
    private func context(
        _ error: any Error, retries: Int = 0, elapsed: TimeInterval = 0,
        method: HTTPMethod? = .get, random: Double = 0.5
    ) -> RetryContext {
        RetryContext(retriesSoFar: retries, error: error, elapsed: elapsed, method: method, randomUnit: random)
    }

    // MARK: Rate limiting

    func testRateLimitRetries403sAnd503sThatSignalALimitAndNothingElse() throws {
        let policy = RateLimitPolicy(maxRetries: 1, maxSecondsToWait: 5)
        let url = URL(string: "http://127.0.0.1/unit")!
        func refusal(_ status: Int, _ headers: [String: String]) -> any Error {
            HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!.httpError()!
        }
        XCTAssertEqual(
            policy.decision(for: context(refusal(403, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "2"]))),
            .retry(after: 2))
        XCTAssertEqual(
            policy.decision(
                for: context(
                    refusal(
                        403,
                        [
                            "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1767225603",
                            "Date": "Thu, 01 Jan 2026 00:00:00 GMT",
                        ]))), .retry(after: 3))
        XCTAssertEqual(policy.decision(for: context(refusal(403, ["Retry-After": "1"]))), .retry(after: 1))
        XCTAssertEqual(policy.decision(for: context(refusal(503, ["Retry-After": "4"]))), .retry(after: 4))
        XCTAssertEqual(
            policy.decision(for: context(refusal(403, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "60"]))),
            .fail,
            "longer than allowed")
        XCTAssertEqual(policy.decision(for: context(refusal(403, [:]))), .fail, "a plain 403")
        XCTAssertEqual(
            policy.decision(for: context(refusal(503, [:]))), .fail, "a 503 without Retry-After is retryOnFailure's")
        XCTAssertEqual(
            policy.decision(for: context(refusal(429, ["RateLimit-Remaining": "0", "RateLimit-Reset": "2"]))),
            .retry(after: 2),
            "a 429 without Retry-After waits its RateLimit-Reset")
    }

    func testRateLimitWaitsExactlyTheServersRetryAfter() {
        let policy = RateLimitPolicy(maxRetries: 1, maxSecondsToWait: 2)
        XCTAssertEqual(
            policy.decision(for: context(HTTPClientError.tooManyRequests(retryAfter: 1.5))), .retry(after: 1.5))
    }

    func testRateLimitFailsAtOnceWhenServerAsksForMoreThanTheMaximum() {
        // The design notes would retry after `maxSecondsToWait` here, only to be refused again.
        let policy = RateLimitPolicy(maxRetries: 3, maxSecondsToWait: 1)
        XCTAssertEqual(policy.decision(for: context(HTTPClientError.tooManyRequests(retryAfter: 1.01))), .fail)
    }

    func testRateLimitStopsAfterMaxRetries() {
        let policy = RateLimitPolicy(maxRetries: 1, maxSecondsToWait: 5)
        XCTAssertEqual(
            policy.decision(for: context(HTTPClientError.tooManyRequests(retryAfter: 0.1), retries: 1)), .fail)
    }

    func testRateLimitWithoutRetryAfterBacksOffExponentiallyWithJitterUnderTheCap() {
        let policy = RateLimitPolicy(maxRetries: 10, maxSecondsToWait: 1, initialBackoff: 0.25)
        let error = HTTPClientError.tooManyRequests(retryAfter: nil)
        // Equal jitter: between half the cap and the cap.
        XCTAssertEqual(policy.decision(for: context(error, retries: 0, random: 0)), .retry(after: 0.125))
        XCTAssertEqual(policy.decision(for: context(error, retries: 0, random: 1)), .retry(after: 0.25))
        XCTAssertEqual(policy.decision(for: context(error, retries: 1, random: 1)), .retry(after: 0.5))
        XCTAssertEqual(
            policy.decision(for: context(error, retries: 5, random: 1)), .retry(after: 1), "capped by maxSecondsToWait")
    }

    func testRateLimitIgnoresOtherErrors() {
        let policy = RateLimitPolicy(maxRetries: 5, maxSecondsToWait: 5)
        XCTAssertEqual(policy.decision(for: context(HTTPClientError.unauthorized)), .fail)
        XCTAssertEqual(policy.decision(for: context(HTTPClientError.forbidden)), .fail)
        // A 503 *with* Retry-After is a rate limit (issue 29); without, it is retryOnFailure's business.
        XCTAssertEqual(policy.decision(for: context(HTTPServerError.serviceUnavailable(retryAfter: nil))), .fail)
        XCTAssertEqual(policy.decision(for: context(HTTPServerError.badGateway)), .fail)
        XCTAssertEqual(policy.decision(for: context(URLError(.networkConnectionLost))), .fail)
    }

    // MARK: Transient failures

    func testRetryableFailures() {
        let policy = RetryPolicy.default
        for error: any Error in [
            HTTPClientError.requestTimeout, HTTPServerError.internalServerError, HTTPServerError.badGateway,
            HTTPServerError.serviceUnavailable(retryAfter: nil), HTTPServerError.gatewayTimeout,
            URLError(.networkConnectionLost), URLError(.cannotConnectToHost), URLError(.timedOut),
        ] {
            XCTAssertTrue(policy.isRetryable(error), "\(error)")
        }
        for error: any Error in [
            HTTPClientError.notFound, HTTPClientError.tooManyRequests(retryAfter: 1),
            HTTPServerError.notImplemented, URLError(.badURL), CancellationError(),
        ] {
            XCTAssertFalse(policy.isRetryable(error), "\(error)")
        }
    }

    func testFullJitterDelaysStayWithinTheExponentialCap() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: 0.1, maxDelay: 1, totalBudget: 100)
        for retry in 0..<8 {
            let cap = min(1, 0.1 * pow(2, Double(retry)))
            XCTAssertEqual(
                policy.decision(for: context(HTTPServerError.badGateway, retries: retry, random: 0)), .retry(after: 0))
            guard
                case let .retry(delay) = policy.decision(
                    for: context(HTTPServerError.badGateway, retries: retry, random: 0.999_999))
            else {
                return XCTFail("retry \(retry) should be allowed")
            }
            XCTAssertLessThanOrEqual(delay, cap)
            XCTAssertGreaterThan(delay, cap * 0.99)
        }
    }

    func testMaxAttemptsCountsTheFirstAttempt() {
        let policy = RetryPolicy(maxAttempts: 3)
        XCTAssertNotEqual(policy.decision(for: context(HTTPServerError.badGateway, retries: 1)), .fail)
        XCTAssertEqual(policy.decision(for: context(HTTPServerError.badGateway, retries: 2)), .fail)
    }

    func testBudgetStopsARetryThatWouldStartTooLate() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: 1, maxDelay: 1, totalBudget: 2)
        XCTAssertEqual(
            policy.decision(for: context(HTTPServerError.badGateway, elapsed: 1.5, random: 0.4)), .retry(after: 0.4))
        XCTAssertEqual(policy.decision(for: context(HTTPServerError.badGateway, elapsed: 1.5, random: 0.6)), .fail)
    }

    func testServiceUnavailableHonoursRetryAfterWithinTheBudget() {
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: 0.1, maxDelay: 0.2, totalBudget: 5)
        XCTAssertEqual(
            policy.decision(for: context(HTTPServerError.serviceUnavailable(retryAfter: 2))), .retry(after: 2))
        XCTAssertEqual(policy.decision(for: context(HTTPServerError.serviceUnavailable(retryAfter: 6))), .fail)
        var ignoring = policy
        ignoring.honoursRetryAfter = false
        XCTAssertEqual(
            ignoring.decision(for: context(HTTPServerError.serviceUnavailable(retryAfter: 2), random: 1)),
            .retry(after: 0.1))
    }

    func testOnlyIdempotentMethodsUnlessAllowed() {
        let policy = RetryPolicy.default
        XCTAssertEqual(policy.decision(for: context(HTTPServerError.badGateway, method: .post)), .fail)
        XCTAssertEqual(policy.decision(for: context(HTTPServerError.badGateway, method: .patch)), .fail)
        XCTAssertEqual(policy.decision(for: context(HTTPServerError.badGateway, method: nil)), .fail)
        XCTAssertNotEqual(policy.decision(for: context(HTTPServerError.badGateway, method: .put)), .fail)
        XCTAssertNotEqual(policy.decision(for: context(HTTPServerError.badGateway, method: .delete)), .fail)
        var anyMethod = policy
        anyMethod.retriesNonIdempotentRequests = true
        XCTAssertNotEqual(anyMethod.decision(for: context(HTTPServerError.badGateway, method: .post)), .fail)
    }
}
