// docs/test-kit.md's "With RESTNetworking" example, from the imports to the class's closing brace:
// scripts/check-docs finds that block here verbatim, so keep the two in step.
import RESTNetworking
import UnderstudyTesting
import XCTest

struct PostsAPI: RESTAPIProtocol {
    let baseURL: URL
}

final class ReadmeExampleTests: XCTestCase {
    func testPostsSurviveARateLimit() async throws {
        let understudy = try await Understudy.launch(stubs: ["stubs/restnetworking/readme-posts.json"])
        let api = PostsAPI(baseURL: understudy.baseURL)

        let (data, response) = try await api.call(.get, endpoint: "rest/readme/posts") { $0.receivingJSON() }
            .respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 1)
            .response()

        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"[{"id":1,"title":"hello"}]"#)
        let requests = try await understudy.admin.requests(path: "/rest/readme/posts")
        XCTAssertEqual(requests.map(\.status), [429, 200])
        XCTAssertEqual(requests[0].header("Accept"), "application/json")
        XCTAssertGreaterThanOrEqual(requests[1].elapsedMs - requests[0].elapsedMs, 200)  // waited out Retry-After: 0.2
        await understudy.assertNoUnmatchedRequests()
        await understudy.stop()
    }
}

// The same with Combine; not in the docs' block above.
extension ReadmeExampleTests {
    func testPostsSurviveARateLimitWithCombine() async throws {
        let understudy = try await Understudy.launch(stubs: ["stubs/restnetworking/readme-posts.json"])
        let api = PostsAPI(baseURL: understudy.baseURL)

        let result = await api.get(endpoint: "rest/readme/posts") { $0.receivingJSON() }
            .respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 1)
            .map(\.data)
            .decode(type: [Post].self, decoder: JSONDecoder())
            .awaitResult()

        XCTAssertEqual(try result.get(), [Post(id: 1, title: "hello")])
        let count = try await understudy.admin.count(
            matching: RequestMatcher(method: "GET", path: "/rest/readme/posts"))
        XCTAssertEqual(count, 2)
        await understudy.assertNoUnmatchedRequests()
        await understudy.stop()
    }
}

struct Post: Codable, Equatable, Sendable {
    var id: Int
    var title: String
}
