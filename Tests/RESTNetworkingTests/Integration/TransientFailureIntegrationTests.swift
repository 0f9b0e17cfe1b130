import RESTNetworking
import UnderstudyTesting
import XCTest

/// `retryOnFailure` against 503s and real connection faults carried out by the daemon.
final class TransientFailureIntegrationTests: DaemonTestCase {
    func testBackoffOn503StaysWithinThePolicyAndRecovers() async throws {
        let policy = RetryPolicy(maxAttempts: 4, baseDelay: 0.1, maxDelay: 0.4, totalBudget: 10)
        let delays = Locked<[TimeInterval]>([])
        let result = await api.get(endpoint: "rest/flaky/backoff")
            .retryOnFailure(policy: policy, onRetry: { event in delays.withLock { $0.append(event.delay) } })
            .awaitResult()

        XCTAssertEqual(try result.get().response.statusCode, 200)
        let requests = try await journal("/rest/flaky/backoff")
        XCTAssertEqual(requests.map(\.status), [503, 503, 200])
        let waited = delays.withLock { $0 }
        XCTAssertEqual(waited.count, 2)
        for (retry, (delay, gap)) in zip(waited, gapsMs(requests)).enumerated() {
            XCTAssertGreaterThanOrEqual(delay, 0)
            XCTAssertLessThanOrEqual(delay, policy.backoffCap(forRetry: retry), "full jitter stays under the cap")
            XCTAssertGreaterThanOrEqual(gap, delay * 1_000 - 0.001, "retry \(retry + 1) went out before its delay")
        }
    }

    func testRetryAfterOn503IsHonouredAndTheBudgetStopsRetrying() async throws {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: 0.05, maxDelay: 0.1, totalBudget: 1.0)
        let started = Date()
        let result = await api.get(endpoint: "rest/flaky/budget").retryOnFailure(policy: policy).awaitResult()

        XCTAssertThrowsError(try result.get()) {
            XCTAssertEqual(($0 as? HTTPServerError)?.statusCode, 503)
            XCTAssertEqual(($0 as? HTTPServerError)?.retryAfter, 0.4)
        }
        let requests = try await journal("/rest/flaky/budget")
        // 0.4 s apart within a 1 s budget: at most 3 attempts (0, 0.4, 0.8), never the 10 allowed.
        XCTAssertTrue((2...3).contains(requests.count), "\(requests.count) attempts")
        for gap in gapsMs(requests) {
            XCTAssertGreaterThanOrEqual(gap, 400, "503 Retry-After: 0.4 not honoured")
        }
        // No retry starts after the budget; the margin only covers delivery of the last request.
        let span = (requests.last?.elapsedMs ?? 0) - (requests.first?.elapsedMs ?? 0)
        XCTAssertLessThanOrEqual(span, 1_000 + 500)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    func testPOSTWithoutAnIdempotencyKeyIsNotRetried() async throws {
        let policy = RetryPolicy(idempotencyKeys: .callerSupplied)
        let result = await api.post(endpoint: "rest/flaky/submit", body: Data(#"{"title":"x"}"#.utf8)) {
            $0.sendingJSON()
        }
        .retryOnFailure(policy: policy)
        .awaitResult()

        XCTAssertThrowsError(try result.get()) {
            XCTAssertEqual(($0 as? HTTPServerError)?.statusCode, 503)
            XCTAssertEqual(($0 as? HTTPServerError)?.retryAfter, nil)
        }
        let requests = try await journal("/rest/flaky/submit")
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(requests.first?.body, #"{"title":"x"}"#)
        XCTAssertNil(requests.first?.header("Idempotency-Key"))
    }

    func testPOSTIsRetriedByDefaultWithOneIdempotencyKeyOnEveryAttempt() async throws {
        let policy = RetryPolicy(maxAttempts: 2, baseDelay: 0.05)
        let output = try await api.post(endpoint: "rest/flaky/submit", body: Data(#"{"title":"x"}"#.utf8)) {
            $0.sendingJSON()
        }
        .retryOnFailure(policy: policy)
        .awaitResult()
        .get()

        XCTAssertEqual(output.response.statusCode, 201)
        let requests = try await journal("/rest/flaky/submit")
        XCTAssertEqual(requests.map(\.status), [503, 201])
        let keys = requests.map { $0.header("Idempotency-Key") }
        XCTAssertNotNil(keys.first ?? nil, "the first attempt already carries the key")
        XCTAssertEqual(Set(keys).count, 1, "one key for the logical call: \(keys)")
        XCTAssertEqual(Set(requests.map(\.body)), [#"{"title":"x"}"#])
    }

    func testPOSTIsRetriedWhenThePolicySaysSo() async throws {
        let policy = RetryPolicy(maxAttempts: 2, baseDelay: 0.05, retriesNonIdempotentRequests: true)
        let output = try await api.call(.post, endpoint: "rest/flaky/submit", body: Data("{}".utf8))
            .retryOnFailure(policy: policy)
            .response()

        XCTAssertEqual(output.response.statusCode, 201)
        let statuses = try await journal("/rest/flaky/submit").map(\.status)
        XCTAssertEqual(statuses, [503, 201])
    }

    // MARK: Faults

    /// Sends one GET to a fault stub with no retries and returns the error it surfaced as.
    private func transportError(_ path: String) async throws -> HTTPTransportError {
        let result = await api.get(endpoint: path).awaitResult()
        guard case let .failure(error) = result else {
            throw XCTSkip("expected \(path) to fail")
        }
        return try XCTUnwrap(error as? HTTPTransportError, "\(error)")
    }

    func testEachFaultSurfacesAsItsDocumentedError() async throws {
        #if canImport(FoundationNetworking)
        let expected: [(String, HTTPTransportError.Kind)] = [
            ("rest/fault/reset", .connectionLost),
            ("rest/fault/empty", .emptyResponse),
            ("rest/fault/malformed", .malformedResponse),
            ("rest/fault/close-after-headers", .truncatedResponse),
        ]
        #else
        // Apple's URLSession reports an empty reply and a cut-off body as a lost connection.
        let expected: [(String, HTTPTransportError.Kind)] = [
            ("rest/fault/reset", .connectionLost),
            ("rest/fault/empty", .connectionLost),
            ("rest/fault/malformed", .malformedResponse),
            ("rest/fault/close-after-headers", .connectionLost),
        ]
        #endif
        for (path, kind) in expected {
            let error = try await transportError(path)
            XCTAssertEqual(error.kind, kind, "\(path): \(error)")
            XCTAssertTrue(error.url.hasSuffix(path), error.url)
        }
        for (path, _) in expected {
            let requests = try await journal("/" + path)
            XCTAssertEqual(requests.count, 1)
            XCTAssertNotNil(requests.first?.fault)
        }
    }

    func testConnectionFaultsAreRetriedForGET() async throws {
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: 0.05, maxDelay: 0.1)
        for fault in ["reset", "empty", "close-after-headers"] {
            let output = try await api.call(.get, endpoint: "rest/fault/\(fault)").retryOnFailure(policy: policy)
                .response()
            XCTAssertEqual(output.response.statusCode, 200, fault)
            let requests = try await journal("/rest/fault/\(fault)")
            XCTAssertEqual(requests.map(\.responseIndex), [0, 1], fault)
            XCTAssertNotNil(requests.first?.fault, fault)
        }
    }

    func testAMalformedResponseIsNotRetried() async throws {
        let result = await api.get(endpoint: "rest/fault/malformed").retryOnFailure().awaitResult()
        XCTAssertEqual((result.failure as? HTTPTransportError)?.kind, .malformedResponse)
        let requestCount = try await journal("/rest/fault/malformed").count
        XCTAssertEqual(requestCount, 1)
    }

    func testAConnectionResetOnPOSTWithoutAKeyIsNotRetried() async throws {
        let result = await api.post(endpoint: "rest/fault/reset", body: Data("{}".utf8))
            .retryOnFailure(policy: RetryPolicy(idempotencyKeys: .callerSupplied))
            .awaitResult()
        XCTAssertEqual((result.failure as? HTTPTransportError)?.kind, .connectionLost)
        let requestCount = try await journal("/rest/fault/reset").count
        XCTAssertEqual(requestCount, 1)
    }
}
