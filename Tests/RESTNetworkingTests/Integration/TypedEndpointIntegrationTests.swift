import RESTNetworking
import UnderstudyTesting
import XCTest

/// Typed endpoints round-tripping through the daemon: the request read back from the journal, the
/// answer decoded, failures typed, and the same operators as untyped calls.
final class TypedEndpointIntegrationTests: DaemonTestCase {
    private struct Profile: Decodable, Equatable {
        var id: Int
        var name: String
    }
    private struct TokenAnswer: Decodable { var access_token: String }

    private let search = Endpoint<[Post]>(
        .get, "rest/typed/posts",
        query: [
            URLQueryItem(name: "q", value: QueryAndBodyIntegrationTests.awkward),
            URLQueryItem(name: "tag", value: "swift"),
        ])

    func testGetWithQueryItemsDecodesTheAnswer() async throws {
        let posts = try await api.send(search)

        XCTAssertEqual(posts, [Post(id: 1, title: "hello"), Post(id: 2, title: "world")])
        let requests = try await journal("/rest/typed/posts")
        let request = try XCTUnwrap(requests.first)
        XCTAssertEqual(request.query, "q=\(QueryAndBodyIntegrationTests.awkwardEncoded)&tag=swift")
        XCTAssertEqual(request.header("Accept"), "application/json")
        XCTAssertEqual(request.stub, "rest-typed-search")
    }

    func testTheCombineFormPublishesTheDecodedValue() async throws {
        let posts = try await api.publisher(for: search).awaitResult().get()
        XCTAssertEqual(posts.map(\.id), [1, 2])
    }

    func testPostWithAnEncodableBodySendsJSONWithItsEncoder() async throws {
        let newPost = DatedPost(
            title: "new", publishedAt: Date(timeIntervalSince1970: 1_795_478_400), tags: ["a", "b"])
        let create = Endpoint<Post>(
            .post, "rest/typed/posts", headers: ["X-Request-Id": "42"],
            json: newPost, encoder: .sortedISO8601)

        let (created, response) = try await api.call(create).response()

        XCTAssertEqual(created, Post(id: 3, title: "new"))
        XCTAssertEqual(response.statusCode, 201)
        let requests = try await journal("/rest/typed/posts", method: "POST")
        let request = try XCTUnwrap(requests.first)
        XCTAssertEqual(request.body, #"{"publishedAt":"2026-11-24T00:00:00Z","tags":["a","b"],"title":"new"}"#)
        XCTAssertEqual(request.header("Content-Type"), "application/json")
        XCTAssertEqual(request.header("X-Request-Id"), "42")
        XCTAssertEqual(request.stub, "rest-typed-create")
    }

    func testADecodingFailureCarriesTheStatusTheCodingPathAndTheStartOfTheBody() async throws {
        do {
            _ = try await api.send(Endpoint<[Post]>(.get, "rest/typed/broken"))
            XCTFail("the second title is a number")
        } catch let error as ResponseDecodingError {
            XCTAssertEqual(error.statusCode, 200)
            XCTAssertEqual(error.codingPath, "[1].title")
            XCTAssertEqual(error.bodyPrefix, #"[{"id":1,"title":"fine"},{"id":2,"title":42}]"#)
            XCTAssertEqual(error.responseType, "Array<Post>")
            XCTAssertTrue(error.url.hasSuffix("/rest/typed/broken"), error.url)
            XCTAssertTrue(error.underlying is DecodingError)
            XCTAssertTrue(error.description.contains("at [1].title"), error.description)
        }

        let combine = await api.publisher(for: Endpoint<[Post]>(.get, "rest/typed/broken")).awaitResult()
        XCTAssertEqual((combine.failure as? ResponseDecodingError)?.codingPath, "[1].title")
    }

    func testAnErrorStatusFailsAsAnHTTPErrorNotADecodingError() async throws {
        do {
            _ = try await api.send(Endpoint<Post>(.get, "rest/typed/missing"))
            XCTFail("expected 404")
        } catch {
            XCTAssertEqual(error as? HTTPClientError, .notFound)
        }
        let noContent = try await api.send(Endpoint<NoContent>(.get, "rest/echo"))
        XCTAssertEqual(noContent, NoContent())
    }

    func testTypedCallsThroughTheRefreshOperator() async throws {
        let api = self.api!
        let tokens = AccessTokenRefresher(accessToken: "stale-token") {
            try await api.send(Endpoint<TokenAnswer>(.post, "rest/auth/token")).access_token
        }
        let profile = Endpoint<Profile>(.get, "rest/auth/profile")
        let bearer: StubbedAPI.RequestModifier = { $0.addingBearerAuthorization(accessToken: tokens.accessToken ?? "") }

        let viaAsync = try await api.call(profile, requestModifier: bearer).retryOnUnauthorized(refreshingWith: tokens)
            .value()
        XCTAssertEqual(viaAsync, Profile(id: 7, name: "Ada"))
        let requests = try await journal("/rest/auth/profile")
        XCTAssertEqual(requests.map(\.status), [401, 200])
        XCTAssertEqual(requests.map { $0.header("Authorization") }, ["Bearer stale-token", "Bearer fresh-token"])

        // Combine: a new refresher, so the first request is refused again.
        let combineTokens = AccessTokenRefresher(accessToken: "stale-token") {
            try await api.send(Endpoint<TokenAnswer>(.post, "rest/auth/token")).access_token
        }
        let viaCombine = try await api.publisher(for: profile) {
            $0.addingBearerAuthorization(accessToken: combineTokens.accessToken ?? "")
        }
        .retryOnUnauthorized(refreshingWith: combineTokens)
        .awaitResult().get()
        XCTAssertEqual(viaCombine, Profile(id: 7, name: "Ada"))
        let all = try await journal("/rest/auth/profile")
        XCTAssertEqual(all.map(\.status), [401, 200, 401, 200])
        let tokenFetches = try await journal("/rest/auth/token", method: "POST").count
        XCTAssertEqual(tokenFetches, 2)
    }

    func testTypedCallsThroughThe429RetryOperator() async throws {
        let posts = try await api.call(Endpoint<[Post]>(.get, "rest/retry-after/fractional"))
            .respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 2)
            .value()
        XCTAssertEqual(posts, [Post(id: 1, title: "hello")])
        let requests = try await journal("/rest/retry-after/fractional")
        XCTAssertEqual(requests.map(\.status), [429, 200])
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(gapsMs(requests).first), 300, "waited out Retry-After: 0.3")

        let combine = try await api.publisher(for: Endpoint<[Post]>(.get, "rest/retry-after/integer"))
            .respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 2)
            .retryOnFailure()
            .awaitResult().get()
        XCTAssertEqual(combine, [Post(id: 2, title: "integer")])
        let integer = try await journal("/rest/retry-after/integer")
        XCTAssertEqual(integer.map(\.status), [429, 200])
        XCTAssertGreaterThanOrEqual(gapsMs(integer)[0], 1_000)
    }

    func testARetryPolicyDecidesOnTypedCallsAsOnUntypedOnes() async throws {
        let recovered = try await api.call(Endpoint<[String: Bool]>(.get, "rest/flaky/backoff"))
            .retryOnFailure(policy: RetryPolicy(maxAttempts: 3, baseDelay: 0.05, maxDelay: 0.1))
            .value()
        XCTAssertEqual(recovered, ["recovered": true])
        let statuses = try await journal("/rest/flaky/backoff").map(\.status)
        XCTAssertEqual(statuses, [503, 503, 200])
    }
}
