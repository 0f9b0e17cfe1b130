import RESTNetworking
import UnderstudyTesting
import XCTest

/// Issue 9: the seed layer's `tryCatch(_ error:, _ handler:)`, handling one specific `Equatable`
/// error, had no equivalent; ported code fell back to a plain `tryCatch` and a cast.
final class TryCatchIntegrationTests: DaemonTestCase {
    func testTheHandlerRunsForTheErrorNamedAndAnswersInstead() async throws {
        let api = self.api!
        let output = try await api.get(endpoint: "rest/try-catch/missing")
            .tryCatch(HTTPClientError.notFound) { _ in api.get(endpoint: "rest/try-catch/fallback") }
            .awaitResult().get()

        XCTAssertEqual(output.response.statusCode, 200)
        XCTAssertEqual(String(decoding: output.data, as: UTF8.self), #"{"fallback":true}"#)
        let missing = try await journal("/rest/try-catch/missing").map(\.status)
        let fallback = try await journal("/rest/try-catch/fallback").map(\.status)
        XCTAssertEqual(missing, [404])
        XCTAssertEqual(fallback, [200])
    }

    func testOtherErrorsPassThroughAndTheHandlerNeverRuns() async throws {
        let api = self.api!
        let handled = Locked(0)
        let result = await api.get(endpoint: "rest/auth/always-401")
            .tryCatch(HTTPClientError.notFound) { _ -> HTTPRequestPublisher in
                handled.withLock { $0 += 1 }
                return api.get(endpoint: "rest/try-catch/fallback")
            }
            .awaitResult()

        XCTAssertThrowsError(try result.get()) { XCTAssertEqual($0 as? HTTPClientError, .unauthorized) }
        XCTAssertEqual(handled.withLock { $0 }, 0)
        let fallback = try await journal("/rest/try-catch/fallback")
        XCTAssertEqual(fallback.count, 0, "the handler's request was never sent")
    }

    func testTooManyRequestsCatchesA429WhateverItsRetryAfter() async throws {
        let api = self.api!
        let seen = Locked<TimeInterval?>(nil)
        let output = try await api.get(endpoint: "rest/try-catch/limited")
            .tryCatch(HTTPClientError.tooManyRequests()) { error in
                seen.withLock { $0 = error.retryAfter }
                return api.get(endpoint: "rest/try-catch/fallback")
            }
            .awaitResult().get()

        XCTAssertEqual(output.response.statusCode, 200)
        XCTAssertEqual(seen.withLock { $0 }, 0.3, "the handler gets the error as it arrived, Retry-After and all")
    }

    func testTheGeneralFormWorksOnAnyPublisher() async throws {
        let data = try await api.get(endpoint: "rest/try-catch/missing")
            .catchHTTPErrors()
            .map(\.data)
            .tryCatch(HTTPClientError.notFound) { _ in Just(Data("default".utf8)) }
            .awaitResult().get()
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "default")
    }

    func testTheAsyncFormCatchesTheSameWay() async throws {
        let api = self.api!
        let (data, response) = try await api.call(.get, endpoint: "rest/try-catch/missing")
            .tryCatch(HTTPClientError.notFound) { _ in
                try await api.call(.get, endpoint: "rest/try-catch/fallback").response()
            }
            .response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"fallback":true}"#)

        do {
            _ = try await api.call(.get, endpoint: "rest/auth/always-401")
                .tryCatch(HTTPClientError.notFound) { _ in
                    XCTFail("a 401 is not a 404")
                    return try await api.call(.get, endpoint: "rest/try-catch/fallback").response()
                }
                .response()
            XCTFail("expected the 401")
        } catch {
            XCTAssertTrue(error.is(.unauthorized), "\(error)")
        }
        let fallback = try await journal("/rest/try-catch/fallback")
        XCTAssertEqual(fallback.count, 1)
    }

    func testTypedCallsCatchTheSameWay() async throws {
        let api = self.api!
        let answer = try await api.call(Endpoint<[String: Bool]>(.get, "rest/try-catch/limited"))
            .tryCatch(HTTPClientError.tooManyRequests()) { _ in
                try await api.call(.get, endpoint: "rest/try-catch/fallback").response()
            }
            .value()
        XCTAssertEqual(answer, ["fallback": true])
    }
}
