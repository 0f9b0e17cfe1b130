import RESTNetworking
import UnderstudyTesting
import XCTest

/// `retryOnUnauthorized`: the token endpoint and the protected resource are both stubs, so the
/// journal shows which token each request carried and how often the token was fetched.
final class UnauthorizedIntegrationTests: DaemonTestCase {
    private struct TokenAnswer: Decodable { var access_token: String }

    /// A refresher that fetches from the stubbed token endpoint at `path`. `gate` runs first, so a
    /// test can hold the refresh until every concurrent request has had its 401.
    private func refresher(tokenEndpoint: String, gate: @escaping @Sendable () async throws -> Void = {})
        -> AccessTokenRefresher
    {
        let api = self.api!
        return AccessTokenRefresher(accessToken: "stale-token") {
            try await gate()
            let (data, _) = try await api.call(.post, endpoint: tokenEndpoint).catchHTTPErrors().response()
            return try JSONDecoder().decode(TokenAnswer.self, from: data).access_token
        }
    }

    private func profile(_ refresher: AccessTokenRefresher) -> HTTPRequestPublisher {
        Self.profile(api, refresher)
    }

    private static func profile(_ api: StubbedAPI, _ refresher: AccessTokenRefresher) -> HTTPRequestPublisher {
        api.get(endpoint: "rest/auth/profile") { request in
            request.addingBearerAuthorization(accessToken: refresher.accessToken ?? "").receivingJSON()
        }
    }

    func testA401RefreshesTheTokenAndTheRetryCarriesTheNewOne() async throws {
        let refresher = refresher(tokenEndpoint: "rest/auth/token")
        let result = await profile(refresher).retryOnUnauthorized(refreshingWith: refresher).awaitResult()

        let output = try result.get()
        XCTAssertEqual(output.response.statusCode, 200)
        XCTAssertEqual(String(decoding: output.data, as: UTF8.self), #"{"id":7,"name":"Ada"}"#)
        let requests = try await journal("/rest/auth/profile")
        XCTAssertEqual(requests.map(\.status), [401, 200])
        XCTAssertEqual(requests.map { $0.header("Authorization") }, ["Bearer stale-token", "Bearer fresh-token"])
        let tokenFetches = try await journal("/rest/auth/token", method: "POST").count
        XCTAssertEqual(tokenFetches, 1)
    }

    func testTenConcurrent401sCauseOneRefreshAndAllRetryWithItsToken() async throws {
        let path = "/rest/auth/profile"
        let admin = understudy.admin
        let refresher = refresher(
            tokenEndpoint: "rest/auth/token",
            gate: {
                // Hold the refresh until all ten 401s have happened, the moment single-flight is for.
                try await admin.waitForRequests(path: path, count: 10)
            })
        let call = api.call(.get, endpoint: "rest/auth/profile") {
            $0.addingBearerAuthorization(accessToken: refresher.accessToken ?? "")
        }
        .retryOnUnauthorized(refreshingWith: refresher)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 { group.addTask { try await call.response().response.statusCode } }
            for try await status in group { XCTAssertEqual(status, 200) }
        }

        let tokenFetches = try await journal("/rest/auth/token", method: "POST").count
        XCTAssertEqual(tokenFetches, 1, "one refresh for ten 401s")
        XCTAssertEqual(refresher.refreshCount, 1)
        let requests = try await journal(path)
        XCTAssertEqual(requests.count, 20)
        XCTAssertEqual(
            requests.filter { $0.header("Authorization") == "Bearer stale-token" }.map(\.status),
            Array(repeating: 401, count: 10))
        XCTAssertEqual(
            requests.filter { $0.header("Authorization") == "Bearer fresh-token" }.map(\.status),
            Array(repeating: 200, count: 10))
    }

    func testAFailedRefreshFailsEveryWaitingRequestWithTheRefreshError() async throws {
        let path = "/rest/auth/profile"
        let admin = understudy.admin
        let refresher = refresher(
            tokenEndpoint: "rest/auth-broken/token",
            gate: {
                try await admin.waitForRequests(path: path, count: 5)
            })
        let api = self.api!
        let results = await withTaskGroup(of: Result<HTTPResponseOutput, any Error>.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    await Self.profile(api, refresher).retryOnUnauthorized(refreshingWith: refresher).awaitResult()
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        XCTAssertEqual(results.count, 5)
        for result in results {
            XCTAssertThrowsError(try result.get()) { XCTAssertEqual($0 as? HTTPServerError, .internalServerError) }
        }
        let tokenFetches = try await journal("/rest/auth-broken/token", method: "POST").count
        XCTAssertEqual(tokenFetches, 1)
        let statuses = try await journal(path).map(\.status)
        XCTAssertEqual(statuses, Array(repeating: 401, count: 5), "nothing retried")
    }

    func testASecond401AfterRefreshingIsNotRetriedAgain() async throws {
        let refresher = refresher(tokenEndpoint: "rest/auth/token")
        let result = await api.get(endpoint: "rest/auth/always-401") {
            $0.addingBearerAuthorization(accessToken: refresher.accessToken ?? "")
        }
        .retryOnUnauthorized(refreshingWith: refresher)
        .awaitResult()

        XCTAssertThrowsError(try result.get()) { XCTAssertEqual($0 as? HTTPClientError, .unauthorized) }
        let requests = try await journal("/rest/auth/always-401")
        XCTAssertEqual(requests.map { $0.header("Authorization") }, ["Bearer stale-token", "Bearer fresh-token"])
        let tokenFetches = try await journal("/rest/auth/token", method: "POST").count
        XCTAssertEqual(tokenFetches, 1)
    }
}
