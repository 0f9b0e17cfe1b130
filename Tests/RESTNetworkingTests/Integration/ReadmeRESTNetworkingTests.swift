import RESTNetworking
import UnderstudyTesting
import XCTest

// docs/restnetworking.md's examples, verbatim between the `README:` markers; scripts/check-docs
// fails when a block there is no longer found here.

// README: api
struct BlogAPI: RESTAPIProtocol {
    let baseURL: URL
    let pacer = RequestPacer()  // opt-in: one pacer per client (see "Pacing")
}

struct NewPost: Encodable, Sendable { var title: String }

extension Endpoint where Response == [Post] {
    static func posts(taggedWith tag: String) -> Self {
        Self(.get, "posts", query: [URLQueryItem(name: "tag", value: tag)])
    }
}

extension Endpoint where Response == Post {
    static func create(_ post: NewPost) -> Self {
        Self(.post, "posts", json: post)
    }
}
// README: end

final class ReadmeRESTNetworkingTests: DaemonTestCase {
    func testTypedEndpoints() async throws {
        let blogURL = understudy.baseURL.appendingPathComponent("blog")
        // README: use
        let api = BlogAPI(baseURL: blogURL)

        let swiftPosts = try await api.send(.posts(taggedWith: "swift"))  // [Post]

        let created = try await api.call(.create(NewPost(title: "hello")))  // operators first
            .respondToRateLimiting(maxRetries: 2, maxSecondsToWait: 5)
            .value()  // Post

        let cancellable = api.publisher(for: .posts(taggedWith: "swift"))  // Combine: publishes [Post]
            .retryOnFailure()
            .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
        // README: end
        XCTAssertEqual(swiftPosts, [Post(id: 1, title: "hello")])
        XCTAssertEqual(created, Post(id: 9, title: "hello"))
        try await understudy.admin.waitForRequests(path: "/blog/posts", count: 3)
        cancellable.cancel()
        let requests = try await journal("/blog/posts")
        XCTAssertEqual(requests.map(\.method), ["GET", "POST", "GET"])
        XCTAssertEqual(requests[0].query, "tag=swift")
        XCTAssertEqual(requests[1].body, #"{"title":"hello"}"#)
    }

    func testPacing() async throws {
        let blogURL = understudy.baseURL.appendingPathComponent("blog")
        // README: pacing
        let api = BlogAPI(baseURL: blogURL)  // the server allows 4 requests per second
        let tags = ["swift", "linux", "http", "combine", "async", "rest", "json", "tests", "stubs"]

        let results = try await withThrowingTaskGroup(of: [Post].self) { group in
            for tag in tags {
                group.addTask { try await api.send(.posts(taggedWith: tag)) }  // all at once
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // 9 answers, no 429: the pacer held requests 5–8 and 9 for the server's RateLimit-Reset
        // README: end
        XCTAssertEqual(results.count, tags.count)
        let requests = try await journal("/blog/posts")
        XCTAssertEqual(requests.count, 9)
        XCTAssertEqual(requests.filter { $0.status == 429 }.count, 0)
        XCTAssertGreaterThanOrEqual(requests[8].elapsedMs - requests[0].elapsedMs, 2_000, "three windows of 4")
        XCTAssertEqual(Set(requests.compactMap(\.query)).count, 9)
    }

    func testUntypedRequests() async throws {
        let api = BlogAPI(baseURL: understudy.baseURL.appendingPathComponent("blog"))
        // README: untyped
        let posts = api.get(endpoint: "posts", query: [URLQueryItem(name: "tag", value: "swift")]) { request in
            request.addingValue("42", forHTTPHeaderField: "X-Request-Id").receivingJSON()
        }  // HTTPRequestPublisher: Output (data: Data, response: HTTPURLResponse)
        let created = api.post(endpoint: "posts", json: NewPost(title: "hello"))  // also put/patch; body: Data?
        let (data, response) = try await api.call(.get, endpoint: "posts?tag=swift").response()  // async: RESTCall
        // README: end
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"[{"id":1,"title":"hello"}]"#)
        let listed = try await posts.catchHTTPErrors().awaitResult().get()
        let made = try await created.catchHTTPErrors().awaitResult().get()
        XCTAssertEqual(listed.response.statusCode, 200)
        XCTAssertEqual(made.response.statusCode, 201)
        let requests = try await journal("/blog/posts")
        XCTAssertEqual(requests.map(\.method), ["GET", "GET", "POST"])
        XCTAssertEqual(requests[1].header("X-Request-Id"), "42")
        XCTAssertEqual(requests[2].header("Content-Type"), "application/json")
    }

    func testOperators() async throws {
        let authAPI = StubbedAPI(baseURL: understudy.baseURL.appendingPathComponent("rest/auth"))
        let api = authAPI
        let cachedToken = "stale-token"
        struct Profile: Decodable, Equatable {
            var id: Int
            var name: String
        }
        // README: operators
        struct Token: Decodable { var access_token: String }

        let tokens = AccessTokenRefresher(accessToken: cachedToken) {  // once per refresh, however many requests wait
            try await authAPI.send(Endpoint<Token>(.post, "token")).access_token
        }
        let profile = try await api.call(Endpoint<Profile>(.get, "profile")) {
            $0.addingBearerAuthorization(accessToken: tokens.accessToken ?? "")
        }
        .retryOnUnauthorized(refreshingWith: tokens)
        .respondToRateLimiting(maxRetries: 2, maxSecondsToWait: 5)
        .retryOnFailure(policy: RetryPolicy(maxAttempts: 4, baseDelay: 0.2, maxDelay: 2, totalBudget: 10))
        .value()
        // README: end
        XCTAssertEqual(profile, Profile(id: 7, name: "Ada"))
        let statuses = try await journal("/rest/auth/profile").map(\.status)
        XCTAssertEqual(statuses, [401, 200])
    }
}
