import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyTesting

/// UnderstudyTesting against the real daemon, written with Swift Testing (the REST suite uses
/// XCTest), so both frameworks are exercised.
@Suite("UnderstudyTesting against the daemon")
struct UnderstudyHarnessTests {
    /// A stub file written for one test, in its own temporary directory.
    static func stubFile(_ json: String, name: String = "stubs.json") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-testing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(json.utf8).write(to: file)
        return file.path
    }

    static let echoStubs = """
    {
      "stubs": [
        {
          "id": "harness-echo",
          "request": { "method": "POST", "path": "/harness/echo" },
          "responses": [ { "status": 201, "json": { "first": true } }, { "status": 200, "body": "again" } ]
        },
        {
          "id": "harness-hello",
          "request": { "method": "GET", "path": "/harness/hello" },
          "responses": [ { "status": 200, "body": "hello" } ]
        }
      ]
    }
    """

    /// Sends a request with plain URLSession (this suite does not use RESTNetworking).
    @discardableResult
    static func send(_ method: String, _ path: String, to understudy: Understudy, body: String? = nil,
                     headers: [String: String] = [:]) async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: understudy.baseURL.absoluteString + path)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func launchesReportsHealthAndStopsCleanly() async throws {
        let understudy = try await Understudy.launch(stubs: [try Self.stubFile(Self.echoStubs)])
        #expect(understudy.baseURL.host == "127.0.0.1")
        #expect(understudy.isLaunched)
        let health = try await understudy.admin.health()
        #expect(health == DaemonHealth(status: "ok", stubs: 2, requests: 0, pending: 0))
        #expect(await understudy.stop() == 0)
    }

    @Test func recordedRequestsCarryEveryJournalField() async throws {
        let understudy = try await Understudy.launch(stubs: [try Self.stubFile(Self.echoStubs)])
        defer { understudy.stopWithoutWaiting() }
        try await Self.send("POST", "/harness/echo?x=1", to: understudy, body: "{\"a\":1}", headers: ["X-Trace": "t-1"])
        try await Self.send("POST", "/harness/echo", to: understudy, body: "")

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
        let second = log.requests[1]
        #expect(second.query == nil)
        #expect(second.responseIndex == 1)
        #expect(second.elapsedMs >= first.elapsedMs)
        await understudy.assertNoUnmatchedRequests()
    }

    @Test func filtersCountsAndClearsTheJournal() async throws {
        let understudy = try await Understudy.launch(stubs: [try Self.stubFile(Self.echoStubs)])
        defer { understudy.stopWithoutWaiting() }
        for _ in 0..<3 { try await Self.send("GET", "/harness/hello", to: understudy, headers: ["X-Mode": "a"]) }
        try await Self.send("POST", "/harness/echo", to: understudy)
        try await Self.send("GET", "/harness/nowhere", to: understudy)

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

    @Test func assertNoUnmatchedRequestsRecordsAnIssueListingThem() async throws {
        let understudy = try await Understudy.launch(stubs: [try Self.stubFile(Self.echoStubs)])
        defer { understudy.stopWithoutWaiting() }
        try await Self.send("GET", "/harness/typo", to: understudy)
        await withKnownIssue {
            await understudy.assertNoUnmatchedRequests()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("GET /harness/typo") }
        }
    }

    @Test func addsStubsFromAValueAFileAndJSONAndReportsValidationErrors() async throws {
        let understudy = try await Understudy.launch(stubs: [try Self.stubFile(Self.echoStubs)])
        defer { understudy.stopWithoutWaiting() }
        let value: JSONValue = ["stubs": [["id": "harness-added", "request": ["path": "/harness/added"],
                                            "responses": [["status": 202]]]]]
        #expect(try await understudy.admin.addStubs(value) == AddedStubs(added: ["harness-added"], replaced: []))
        #expect(try await Self.send("GET", "/harness/added", to: understudy).0 == 202)

        let file = try Self.stubFile(#"{"stubs":[{"id":"harness-added","request":{"path":"/harness/added"},"responses":[{"status":203}]}]}"#)
        #expect(try await understudy.admin.addStubs(fileAt: file).replaced == ["harness-added"])
        #expect(try await Self.send("GET", "/harness/added", to: understudy).0 == 203)

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
        let understudy = try await Understudy.launch(stubs: [try Self.stubFile(Self.echoStubs)])
        defer { understudy.stopWithoutWaiting() }
        try await Self.send("POST", "/harness/echo", to: understudy)
        let echo = try #require(try await understudy.admin.stub(id: "harness-echo"))
        #expect(echo.responses == 2)
        #expect(echo.timesServed == 1)
        #expect(echo.nextResponseIndex == 1)
        #expect(!echo.exhausted)

        try await understudy.admin.reset()
        #expect(try await understudy.admin.requests().isEmpty)
        #expect(try await understudy.admin.stub(id: "harness-echo")?.timesServed == 0)
        #expect(try await Self.send("POST", "/harness/echo", to: understudy).0 == 201, "sequence restarted")
    }

    @Test func readsAndSetsScenarios() async throws {
        let stubs = """
        {"stubs":[
          {"id":"harness-locked","scenario":"door","whenState":"Started","request":{"path":"/harness/door"},"responses":[{"status":423}]},
          {"id":"harness-open","scenario":"door","whenState":"Open","request":{"path":"/harness/door"},"responses":[{"status":200}]}
        ]}
        """
        let understudy = try await Understudy.launch(stubs: [try Self.stubFile(stubs)])
        defer { understudy.stopWithoutWaiting() }
        #expect(try await understudy.admin.scenarios() == [ScenarioStatus(name: "door", state: "Started", states: ["Started", "Open"])])
        #expect(try await Self.send("GET", "/harness/door", to: understudy).0 == 423)
        try await understudy.admin.setScenario("door", to: "Open")
        #expect(try await understudy.admin.scenarios().first?.state == "Open")
        #expect(try await Self.send("GET", "/harness/door", to: understudy).0 == 200)
        await #expect(throws: UnderstudyError.self) { try await understudy.admin.setScenario("door", to: "Ajar") }
    }

    @Test func attachUsesARunningDaemon() async throws {
        let launched = try await Understudy.launch(stubs: [try Self.stubFile(Self.echoStubs)])
        defer { launched.stopWithoutWaiting() }
        let attached = try await Understudy.attachOrLaunch(stubs: [], environment: ["UNDERSTUDY_URL": launched.baseURL.absoluteString])
        #expect(!attached.isLaunched)
        #expect(attached.baseURL == launched.baseURL)
        #expect(try await attached.admin.health().stubs == 2)
        #expect(await attached.stop() == nil, "an attached daemon is not ours to stop")
        #expect(try await launched.admin.health().status == "ok")
    }

    @Test func anAdminTokenIsSentByLaunchAndAttachAndRequiredByTheDaemon() async throws {
        let launched = try await Understudy.launch(stubs: [try Self.stubFile(Self.echoStubs)], adminToken: "s3cret-token")
        defer { launched.stopWithoutWaiting() }
        #expect(try await launched.admin.health().stubs == 2, "launch sends the token it started the daemon with")

        let withoutToken = Understudy.attach(url: launched.baseURL)
        do {
            _ = try await withoutToken.admin.health()
            Issue.record("an admin call without the token must be refused")
        } catch let error as UnderstudyError {
            guard case let .admin(adminError) = error else {
                Issue.record("expected an admin error, got \(error)")
                return
            }
            #expect(adminError.status == 401)
        }

        let withToken = Understudy.attach(url: launched.baseURL, adminToken: "s3cret-token")
        #expect(try await withToken.admin.health().status == "ok")
        let fromEnvironment = try await Understudy.attachOrLaunch(stubs: [], environment: [
            "UNDERSTUDY_URL": launched.baseURL.absoluteString, Understudy.adminTokenVariable: "s3cret-token",
        ])
        #expect(try await fromEnvironment.admin.health().status == "ok", "attachOrLaunch reads the token from the environment")
    }

    @Test func aBadStubFileFailsTheLaunchWithTheDaemonsError() async throws {
        let file = try Self.stubFile(#"{"stubs":[{"id":"x","responses":[{"staus":200}]}]}"#, name: "broken.json")
        let failure: UnderstudyError
        do {
            _ = try await Understudy.launch(stubs: [file])
            Issue.record("launch should have failed")
            return
        } catch {
            failure = error
        }
        guard case let .exitedBeforeReady(status, stderr) = failure else {
            Issue.record("unexpected error: \(failure)")
            return
        }
        #expect(status != 0)
        #expect(stderr.contains("broken.json:1:"), "stderr: \(stderr)")
        #expect(stderr.contains("status"), "stderr: \(stderr)")
    }

    @Test func aMissingBinaryIsReportedWithWhereItLooked() async throws {
        #expect(throws: UnderstudyError.self) {
            try UnderstudyBinaryLocator.locate(environment: ["UNDERSTUDY_BIN": "/nonexistent/understudy"])
        }
        let found = try UnderstudyBinaryLocator.locate(environment: [:])
        #expect(found.hasSuffix("/understudy"))
    }
}
