// docs/sessions.md's "Parallel tests" examples, verbatim (scripts/check-docs checks that they still are).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyTesting
import XCTest

@Suite(.understudy(stubs: "stubs/token-refresh.json"))
struct ProfileTests {
    @Test(arguments: 1...20)  // twenty copies at once; none sees another's scenario or journal
    func profileAfterATokenRefresh(copy: Int) async throws {
        let understudy = try #require(Understudy.current)  // this test's own session
        let profile = understudy.baseURL.appendingPathComponent("examples/profile")
        #expect(try await status(URLRequest(url: profile)) == 401)  // every session starts in "Started"

        var refresh = URLRequest(url: understudy.baseURL.appendingPathComponent("examples/token"))
        refresh.httpMethod = "POST"
        #expect(try await status(refresh) == 200)
        var retry = URLRequest(url: profile)
        retry.setValue("Bearer fresh-token", forHTTPHeaderField: "Authorization")
        #expect(try await status(retry) == 200)

        let journal = try await understudy.admin.requests()
        #expect(journal.map(\.seq) == [1, 2, 3])  // only this test's requests
        #expect(journal.map(\.status) == [401, 200, 200])
    }  // then the trait records unmatched requests as issues and deletes the session

    func status(_ request: URLRequest) async throws -> Int {
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}

final class ProfileXCTests: XCTestCase {
    var understudy: Understudy!

    override func setUp() async throws {
        understudy = try await understudySession(stubs: ["stubs/token-refresh.json"])
    }

    func testTheProfileWantsAToken() async throws {
        let profile = understudy.baseURL.appendingPathComponent("examples/profile")
        let (_, response) = try await URLSession.shared.data(from: profile)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 401)
        let journal = try await understudy.admin.waitForRequests(path: "/examples/profile", count: 1)
        XCTAssertEqual(journal.first?.header("Authorization"), nil)
    }
}

@Test func aSessionByHand() async throws {
    let understudy = try await Understudy.session(stubs: ["stubs/token-refresh.json"])
    defer { understudy.stopWithoutWaiting() }  // deletes the session (so does releasing the handle)
    var request = URLRequest(url: understudy.baseURL.appendingPathComponent("examples/token"))
    request.httpMethod = "POST"
    request.httpBody = Data(#"{"grant_type":"refresh_token"}"#.utf8)
    _ = try await URLSession.shared.data(for: request)

    let sent = try await understudy.admin.find(
        matching: RequestMatcher(
            method: "POST", path: "/examples/token", body: ["jsonSubset": ["grant_type": "refresh_token"]]))
    #expect(sent.count == 1)
    let more = try await understudy.admin.requestsAfterWaiting(count: 2, timeout: 0.2)
    #expect(more.timedOut)  // no second token request came: proven without a sleep
}
