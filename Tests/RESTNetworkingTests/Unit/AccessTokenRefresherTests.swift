import RESTNetworking
import XCTest

/// Single-flight refresh coordination, without a server: the "requests" are scripted exchanges
/// whose answer depends on the token the request modifier would send.
final class AccessTokenRefresherTests: XCTestCase {
    /// A gate the refresh waits on, so the test decides when it finishes.
    private final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var waiters: [CheckedContinuation<Void, Never>] = []
        private var open = false
        func wait() async {
            await withCheckedContinuation { c in
                lock.lock()
                if open {
                    lock.unlock()
                    c.resume()
                } else {
                    waiters.append(c)
                    lock.unlock()
                }
            }
        }
        func release() {
            lock.lock()
            open = true
            let all = waiters
            waiters = []
            lock.unlock()
            all.forEach { $0.resume() }
        }
    }

    private enum RefreshFailed: Error, Equatable { case tokenEndpointDown }

    /// A call that answers 401 unless it carries `fresh`.
    private func protectedCall(_ refresher: AccessTokenRefresher, attempts: Locked<Int>) -> RESTCall {
        RESTCall(method: .get) {
            attempts.withLock { $0 += 1 }
            let status = refresher.accessToken == "fresh" ? 200 : 401
            return try ScriptedExchanges.response(status).get()
        }
        .retryOnUnauthorized(refreshingWith: refresher)
    }

    func testConcurrent401sShareOneRefreshAndAllRetryWithItsToken() async throws {
        let gate = Gate()
        let refresher = AccessTokenRefresher(accessToken: "stale") {
            await gate.wait()
            return "fresh"
        }
        let attempts = Locked(0)
        let call = protectedCall(refresher, attempts: attempts)
        let tasks = (0..<10).map { _ in Task { try await call.response() } }
        try await waitUntil { attempts.withLock { $0 } == 10 && refresher.refreshCount == 1 }
        gate.release()
        for task in tasks {
            let output = try await task.value
            XCTAssertEqual(output.response.statusCode, 200)
        }
        XCTAssertEqual(refresher.refreshCount, 1)
        XCTAssertEqual(attempts.withLock { $0 }, 20)
        XCTAssertEqual(refresher.accessToken, "fresh")
    }

    func testA401ArrivingAfterTheRefreshFinishedReusesItsToken() async throws {
        let refresher = AccessTokenRefresher(accessToken: "stale") { "fresh" }
        let attempts = Locked(0)
        // The first attempt is "in flight" while another request's 401 triggers and completes a
        // refresh; its own 401 arrives afterwards and must reuse that token, not refresh again.
        let slow = RESTCall(method: .get) {
            let attempt = attempts.withLock {
                $0 += 1
                return $0
            }
            if attempt == 1 {
                _ = try? await RESTCall(method: .get) { try ScriptedExchanges.response(401).get() }
                    .retryOnUnauthorized(refreshingWith: refresher).response()
                XCTAssertEqual(refresher.refreshCount, 1)
                return try ScriptedExchanges.response(401).get()
            }
            return try ScriptedExchanges.response(refresher.accessToken == "fresh" ? 200 : 401).get()
        }.retryOnUnauthorized(refreshingWith: refresher)
        let output = try await slow.response()
        XCTAssertEqual(output.response.statusCode, 200)
        XCTAssertEqual(attempts.withLock { $0 }, 2)
        XCTAssertEqual(refresher.refreshCount, 1)
    }

    func testAFailedRefreshFailsEveryWaiterWithTheRefreshError() async throws {
        let gate = Gate()
        let refresher = AccessTokenRefresher(accessToken: "stale") {
            await gate.wait()
            throw RefreshFailed.tokenEndpointDown
        }
        let attempts = Locked(0)
        let call = protectedCall(refresher, attempts: attempts)
        let tasks = (0..<5).map { _ in Task { try await call.response() } }
        try await waitUntil { attempts.withLock { $0 } == 5 }
        gate.release()
        for task in tasks {
            let result = await task.result
            XCTAssertEqual(result.failure as? RefreshFailed, .tokenEndpointDown)
        }
        XCTAssertEqual(refresher.refreshCount, 1)
        XCTAssertEqual(attempts.withLock { $0 }, 5, "nothing is retried after a failed refresh")
    }

    func testASecond401AfterRefreshingIsFinal() async {
        let refresher = AccessTokenRefresher(accessToken: "stale") { "fresh-but-rejected" }
        let script = ScriptedExchanges([ScriptedExchanges.response(401)])
        let result = await script.publisher().retryOnUnauthorized(refreshingWith: refresher).awaitResult()
        XCTAssertEqual(result.failure as? HTTPClientError, .unauthorized)
        XCTAssertEqual(script.attempts, 2)
        XCTAssertEqual(refresher.refreshCount, 1)
    }

    func testOtherErrorsDoNotRefresh() async {
        let refresher = AccessTokenRefresher(accessToken: "t") { "u" }
        let script = ScriptedExchanges([ScriptedExchanges.response(403)])
        let result = await script.publisher().retryOnUnauthorized(refreshingWith: refresher).awaitResult()
        XCTAssertEqual(result.failure as? HTTPClientError, .forbidden)
        XCTAssertEqual(refresher.refreshCount, 0)
        XCTAssertEqual(script.attempts, 1)
    }
}
