import Foundation
import Testing
import UnderstudyTesting

/// The one-line verification helpers: each passes on a journal that satisfies it, and fails with
/// a message that names what was expected and shows the journal as a table.
@Suite(
    "UnderstudyTesting: verification",
    .understudy(
        Stub.get("/v/a").respond(.status(200)),
        Stub.get("/v/slow").respond(.status(200).delay(milliseconds: 150)),
        Stub.get("/v/profile").scenario("auth", whenState: "Started").respond(.status(401)),
        Stub.post("/v/token").scenario("auth", setState: "Refreshed").respond(.json(["access_token": "t2"])),
        Stub.get("/v/profile").scenario("auth", whenState: "Refreshed").respond(.json(["name": "Ada"]))
    ))
struct VerificationTests {
    var understudy: Understudy { Understudy.current! }

    /// Expects `body` to record exactly one issue whose text contains every one of `fragments`.
    func expectFailure(
        containing fragments: [String], _ body: () async -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await withKnownIssue(sourceLocation: sourceLocation) {
            await body()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            let missing = fragments.filter { !text.contains($0) }
            if !missing.isEmpty { print("failure text lacks \(missing):\n\(text)") }
            return missing.isEmpty
        }
    }

    /// 401, refresh, retry with the new token: what a token-refreshing client sends.
    func refreshDance() async throws {
        #expect(
            try await HTTP.send("GET", "/v/profile", to: understudy, headers: ["Authorization": "Bearer t1"]).status
                == 401)
        #expect(try await HTTP.send("POST", "/v/token", to: understudy, body: "grant=refresh").status == 200)
        #expect(
            try await HTTP.send("GET", "/v/profile", to: understudy, headers: ["Authorization": "Bearer t2"]).status
                == 200)
    }

    @Test func countPasses() async throws {
        try await HTTP.send("GET", "/v/a", to: understudy)
        try await HTTP.send("GET", "/v/a", to: understudy)
        let found = await understudy.verify(.exactly(2), .get("/v/a"))
        #expect(found.map(\.seq) == [1, 2])
        await understudy.verify(.atLeast(1), .get("/v/a"))
        await understudy.verify(.atMost(2), .get("/v/a"))
        await understudy.verify(.never, .post("/v/a"))
    }

    @Test func countFailureShowsTheMatchingRequests() async throws {
        try await HTTP.send("GET", "/v/a", to: understudy)
        try await HTTP.send("GET", "/v/a", to: understudy)
        await expectFailure(containing: ["expected exactly 3 request(s) matching GET /v/a, found 2", "seq", "/v/a"]) {
            await understudy.verify(.exactly(3), .get("/v/a"))
        }
        await expectFailure(containing: ["expected at most 1 request(s)"]) {
            await understudy.verify(.atMost(1), .get("/v/a"))
        }
        await expectFailure(containing: [
            "expected at least 1 request(s) matching POST /v/a, found 0", "journal:", "/v/a",
        ]) {
            await understudy.verify(.atLeast(1), .post("/v/a"))
        }
    }

    @Test func orderPassesAcrossPaths() async throws {
        try await refreshDance()
        let chain = await understudy.verifyOrder(
            .get("/v/profile"), .post("/v/token"), .get("/v/profile").header("Authorization", "Bearer t2"))
        #expect(chain.map(\.seq) == [1, 2, 3])
    }

    @Test func orderFailureNamesTheMissingStep() async throws {
        try await refreshDance()
        await expectFailure(containing: [
            "requests out of order: no request matching step 2 (GET /v/profile [Authorization = Bearer t1]) after #2",
            "1. POST /v/token", "▶",
        ]) {
            await understudy.verifyOrder(.post("/v/token"), .get("/v/profile").header("Authorization", "Bearer t1"))
        }
    }

    @Test func gapPassesOnTheDaemonsClock() async throws {
        try await HTTP.send("GET", "/v/slow", to: understudy)  // answered after 150 ms, so the next one comes later
        try await HTTP.send("GET", "/v/a", to: understudy)
        let pair = await understudy.verifyGap(atLeast: .milliseconds(100), between: .get("/v/slow"), and: .get("/v/a"))
        #expect(pair.map(\.seq) == [1, 2])
    }

    @Test func gapFailureShowsBothRequests() async throws {
        try await HTTP.send("GET", "/v/a", to: understudy)
        try await HTTP.send("GET", "/v/slow", to: understudy)
        await expectFailure(containing: ["gap between #1 and #2 was", "expected at least 60000.0 ms", "+ms"]) {
            await understudy.verifyGap(atLeast: .seconds(60), between: .get("/v/a"), and: .get("/v/slow"))
        }
        await expectFailure(containing: ["no request matching GET /v/a after one matching GET /v/slow"]) {
            await understudy.verifyGap(atLeast: .zero, between: .get("/v/slow"), and: .get("/v/a"))
        }
    }

    @Test func attemptPassesForTheRetryAfterTheRefresh() async throws {
        try await refreshDance()
        let retry = await understudy.verify(
            attempt: 1, of: .get("/v/profile"), after: .post("/v/token"),
            matches: .get("/v/profile").header("Authorization", "Bearer t2"))
        #expect(retry?.seq == 3)
        await understudy.verify(
            attempt: 1, of: .get("/v/profile"), matches: .any().header("Authorization", .contains("t1")))
    }

    @Test func attemptFailureShowsWhatWasSent() async throws {
        try await refreshDance()
        await expectFailure(containing: [
            "attempt 1 of GET /v/profile after POST /v/token (#3) does not match",
            "authorization", "Bearer t2",
        ]) {
            await understudy.verify(
                attempt: 1, of: .get("/v/profile"), after: .post("/v/token"),
                matches: .get("/v/profile").header("authorization", "Bearer t3"))
        }
        await expectFailure(containing: ["no attempt 3 of GET /v/profile: only 2 such request(s)"]) {
            await understudy.verify(attempt: 3, of: .get("/v/profile"), matches: .any())
        }
    }

    @Test func noRequestsPassesAfterTheWholeWindow() async throws {
        try await HTTP.send("GET", "/v/a", to: understudy)
        let clock = ContinuousClock()
        let start = clock.now
        await understudy.verifyNoRequests(path: "/v/a", since: 1, within: .milliseconds(300))
        #expect(clock.now - start >= .milliseconds(300), "it waited the window out on the daemon's long poll")
    }

    @Test func noRequestsFailsAsSoonAsOneArrives() async throws {
        let late = Task { try await HTTP.send("GET", "/v/a", to: understudy) }
        let clock = ContinuousClock()
        let start = clock.now
        await expectFailure(containing: ["expected no request passing GET /v/a within 20000.0 ms, got 1", "/v/a"]) {
            await understudy.verifyNoRequests(method: "GET", path: "/v/a", within: .seconds(20))
        }
        #expect(clock.now - start < .seconds(15), "answered by the request, not by the window")
        _ = try await late.value
    }

    @Test func unmatchedRequestsShowAsATable() async throws {
        await understudy.assertNoUnmatchedRequests()
        try await HTTP.send("DELETE", "/v/nothing?x=1", to: understudy)
        await expectFailure(containing: [
            "1 request(s) matched no stub", "DELETE", "/v/nothing?x=1", "404", "unmatched",
        ]) {
            await understudy.assertNoUnmatchedRequests()
        }
    }
}
