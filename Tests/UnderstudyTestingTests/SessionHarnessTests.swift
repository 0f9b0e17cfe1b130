import Foundation
import Testing
import UnderstudyTesting

/// The admin helpers, each test on its own session of the one process-wide daemon (the
/// `.understudy` trait on the suite): journal, filters, stubs, scenarios, reset.
@Suite("UnderstudyTesting on sessions", .understudy(stubs: Fixtures.path("echo.json")))
struct SessionHarnessTests {
    /// The session the trait made for the running test.
    var understudy: Understudy {
        get throws { try #require(Understudy.current) }
    }

    @Test func recordedRequestsCarryEveryJournalField() async throws {
        let understudy = try understudy
        try await HTTP.send("POST", "/harness/echo?x=1", to: understudy, body: "{\"a\":1}", headers: ["X-Trace": "t-1"])
        try await HTTP.send("POST", "/harness/echo", to: understudy, body: "")

        let log = try await understudy.admin.requestLog()
        #expect(log.total == 2)
        #expect(log.dropped == 0)
        let first = try #require(log.requests.first)
        #expect(first.seq == 1)
        #expect(first.method == "POST")
        #expect(first.path == "/harness/echo")
        #expect(first.query == "x=1")
        #expect(first.header("x-trace") == "t-1")
        #expect(first.headers["x-trace"] == ["t-1"])
        #expect(first.body == "{\"a\":1}")
        #expect(first.matched)
        #expect(first.stub == "harness-echo")
        #expect(first.responseIndex == 0)
        #expect(first.status == 201)
        #expect(first.fault == nil)
        #expect(first.scenario == nil)
        #expect(!first.rateLimited)
        #expect(first.date != nil)
        #expect(first.session == understudy.sessionID)
        let second = log.requests[1]
        #expect(second.query == nil)
        #expect(second.responseIndex == 1)
        #expect(second.elapsedMs >= first.elapsedMs)
        await understudy.assertNoUnmatchedRequests()
    }

    @Test func filtersCountsAndClearsTheJournal() async throws {
        let understudy = try understudy
        for _ in 0..<3 { try await HTTP.send("GET", "/harness/hello", to: understudy, headers: ["X-Mode": "a"]) }
        try await HTTP.send("POST", "/harness/echo", to: understudy)
        try await HTTP.send("GET", "/harness/nowhere", to: understudy)

        #expect(try await understudy.admin.requests(RequestFilter(stub: "harness-hello")).count == 3)
        #expect(try await understudy.admin.requests(path: "/harness/hello", method: "GET").count == 3)
        let limited = try await understudy.admin.requestLog(RequestFilter(since: 1, limit: 2))
        #expect(limited.requests.map(\.seq) == [2, 3])
        #expect(limited.total == 4)
        let unmatched = try await understudy.admin.unmatchedRequests()
        #expect(unmatched.map(\.path) == ["/harness/nowhere"])
        #expect(unmatched.first?.status == 404)
        let matcher = RequestMatcher(method: "GET", path: "/harness/hello", headers: ["X-Mode": .equals("a")])
        #expect(try await understudy.admin.count(matching: matcher) == 3)
        #expect(try await understudy.admin.count(matching: RequestMatcher(headers: ["X-Mode": .absent])) == 2)
        #expect(try await understudy.admin.clearRequests() == 5)
        #expect(try await understudy.admin.requests().isEmpty)
    }

    @Test func assertNoUnmatchedRequestsRecordsAnIssueListingThemOnce() async throws {
        let understudy = try understudy
        try await HTTP.send("GET", "/harness/typo", to: understudy)
        await withKnownIssue {
            await understudy.assertNoUnmatchedRequests()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("/harness/typo") && $0.rawValue.contains("404") }
        }
        // Reported once: neither a second assertion nor the trait at the end reports it again.
        await understudy.assertNoUnmatchedRequests()
        try await HTTP.send("GET", "/harness/second-typo", to: understudy)
        await withKnownIssue {
            await understudy.assertNoUnmatchedRequests()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("1 request(s)") && text.contains("/harness/second-typo")
                && !text.contains("/harness/typo ")
        }
    }

    @Test func addsStubsFromAValueAFileAndJSONAndReportsValidationErrors() async throws {
        let understudy = try understudy
        let value: JSONValue = [
            "stubs": [
                [
                    "id": "harness-added", "request": ["path": "/harness/added"],
                    "responses": [["status": 202]],
                ]
            ]
        ]
        #expect(try await understudy.admin.addStubs(value) == AddedStubs(added: ["harness-added"], replaced: []))
        #expect(try await HTTP.send("GET", "/harness/added", to: understudy).status == 202)

        let file = try Fixtures.write(
            #"{"stubs":[{"id":"harness-added","request":{"path":"/harness/added"},"responses":[{"status":203}]}]}"#)
        #expect(try await understudy.admin.addStubs(fileAt: file).replaced == ["harness-added"])
        #expect(try await HTTP.send("GET", "/harness/added", to: understudy).status == 203)

        let rejection = await #expect(throws: UnderstudyError.self) {
            try await understudy.admin.addStubs(json: #"{"stubs":[{"id":"bad","responses":[{"staus":200}]}]}"#)
        }
        guard case let .admin(error)? = rejection else {
            Issue.record("expected an admin error, got \(String(describing: rejection))")
            return
        }
        #expect(error.status == 400)
        let problem = try #require(error.errors.first)
        #expect(problem.suggestion == "status")
        #expect(problem.line == 1)
        #expect(problem.path?.contains("responses[0]") == true)
        #expect(try await understudy.admin.stub(id: "bad") == nil, "all-or-nothing: nothing was added")

        try await understudy.admin.deleteStub(id: "harness-added")
        #expect(try await understudy.admin.stub(id: "harness-added") == nil)
        await #expect(throws: UnderstudyError.self) { try await understudy.admin.deleteStub(id: "harness-added") }
    }

    @Test func readsStubProgressAndResets() async throws {
        let understudy = try understudy
        try await HTTP.send("POST", "/harness/echo", to: understudy)
        let echo = try #require(try await understudy.admin.stub(id: "harness-echo"))
        #expect(echo.responses == 2)
        #expect(echo.timesServed == 1)
        #expect(echo.nextResponseIndex == 1)
        #expect(!echo.exhausted)

        try await understudy.admin.reset()
        #expect(try await understudy.admin.requests().isEmpty)
        #expect(try await understudy.admin.stub(id: "harness-echo")?.timesServed == 0)
        #expect(try await HTTP.send("POST", "/harness/echo", to: understudy).status == 201, "sequence restarted")
        #expect(try await understudy.admin.requests().map(\.seq) == [1], "seq restarts after reset")
    }

    @Test(.understudy(stubs: Fixtures.path("door.json")))
    func aTestTraitAddsItsStubsToTheSuites() async throws {
        let understudy = try understudy
        #expect(try await understudy.admin.health().stubs == 4, "echo.json (suite) and door.json (test)")
        #expect(
            try await understudy.admin.scenarios() == [
                ScenarioStatus(name: "door", state: "Started", states: ["Started", "Open"])
            ])
        #expect(try await HTTP.send("GET", "/harness/door", to: understudy).status == 423)
        try await understudy.admin.setScenario("door", to: "Open")
        #expect(try await understudy.admin.scenarios().first?.state == "Open")
        #expect(try await HTTP.send("GET", "/harness/door", to: understudy).status == 200)
        await #expect(throws: UnderstudyError.self) { try await understudy.admin.setScenario("door", to: "Ajar") }
    }
}
