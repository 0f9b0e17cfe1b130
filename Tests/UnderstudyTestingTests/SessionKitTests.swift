import Foundation
import Testing
import UnderstudyTesting

/// `Understudy.session`, the shared daemon, the trait's bookkeeping, XCTest-free parts of the
/// kit, and the wait/find helpers, against the real daemon.
@Suite("UnderstudyTesting: sessions, the shared daemon and the trait")
struct SessionKitTests {
    /// Polls the shared daemon's session list (with a deadline) until `id` is gone.
    static func waitUntilGone(_ id: String, timeout: TimeInterval = 10) async throws -> Bool {
        let shared = try await Understudy.shared()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await !shared.admin.sessions().contains(where: { $0.id == id }) { return true }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        return false
    }

    @Test func aSessionIsAPrivateWorldBehindItsOwnPortThatStopDeletes() async throws {
        let shared = try await Understudy.shared()
        let session = try await Understudy.session(stubs: [Fixtures.path("echo.json")], name: "kit-private-world")
        let id = try #require(session.sessionID)
        #expect(!session.isLaunched)
        #expect(session.baseURL != shared.baseURL)
        #expect(session.baseURL.host == "127.0.0.1")
        let listed = try #require(try await shared.admin.sessions().first { $0.id == id })
        #expect(listed.name == "kit-private-world")
        #expect(listed.url == session.baseURL.absoluteString)

        #expect(try await session.admin.health().stubs == 2)
        #expect(try await HTTP.send("POST", "/harness/echo", to: session).status == 201)
        #expect(try await session.admin.requests().map(\.seq) == [1])
        #expect(try await shared.admin.requests(path: "/harness/echo").isEmpty, "the main port's journal saw nothing")

        #expect(await session.stop() == nil)
        #expect(try await !shared.admin.sessions().contains { $0.id == id })
        await #expect(throws: (any Error).self, "the session's port is closed") {
            try await HTTP.send("GET", "/harness/hello", to: session)
        }
        await session.stop()  // a second stop does nothing
    }

    @Test func releasingTheHandleDeletesTheSession() async throws {
        var session: Understudy? = try await Understudy.session(name: "kit-released")
        let id = try #require(session?.sessionID)
        #expect(try await Understudy.shared().admin.sessions().contains { $0.id == id })
        session = nil
        #expect(try await Self.waitUntilGone(id))
    }

    /// The session's HTTP/2 stream cap reaches the daemon (test_http2.py shows it announced and
    /// enforced on the wire); the daemon lists it back.
    @Test func aSessionAsksForItsOwnHTTP2StreamCap() async throws {
        let session = try await Understudy.session(name: "kit-streams", maxConcurrentStreams: 7)
        let id = try #require(session.sessionID)
        let listed = try #require(try await Understudy.shared().admin.sessions().first { $0.id == id })
        #expect(listed.maxConcurrentStreams == 7)
        await session.stop()
    }

    @Test func twoSessionsWithTheSameStubsKeepTheirOwnSequences() async throws {
        let first = try await Understudy.session(stubs: [Fixtures.path("echo.json")])
        let second = try await Understudy.session(stubs: [Fixtures.path("echo.json")])
        defer {
            first.stopWithoutWaiting()
            second.stopWithoutWaiting()
        }
        #expect(try await HTTP.send("POST", "/harness/echo", to: first).status == 201)
        #expect(try await HTTP.send("POST", "/harness/echo", to: second).status == 201, "its own sequence position")
        #expect(try await HTTP.send("POST", "/harness/echo", to: first).status == 200)
        try await second.admin.reset()
        #expect(
            try await first.admin.requests().map(\.seq) == [1, 2], "the other session's reset left this journal alone")
        #expect(try await second.admin.requests().isEmpty)
    }

    @Test func aRefusedStubFileNamesTheFileAndLeavesNoSession() async throws {
        let file = try Fixtures.write(
            "{\"stubs\":[\n  {\"id\":\"x\",\"responses\":[{\"staus\":200}]}\n]}", name: "refused.json")
        let name = "kit-refused-\(UUID().uuidString)"
        let failure = await #expect(throws: UnderstudyError.self) {
            _ = try await Understudy.session(stubs: [Fixtures.path("echo.json"), file], name: name)
        }
        guard case let .admin(error)? = failure else {
            Issue.record("expected an admin error, got \(String(describing: failure))")
            return
        }
        #expect(error.status == 400)
        let problem = try #require(error.errors.first)
        #expect(problem.file == file)
        #expect(problem.line == 2)
        #expect(problem.suggestion == "status")
        #expect(error.description.contains("refused.json:2:"), "\(error)")
        #expect(try await !Understudy.shared().admin.sessions().contains { $0.name == name }, "no session left behind")
    }

    @Test func aMissingStubPathIsReportedBeforeAnySessionIsMade() async throws {
        let name = "kit-missing-\(UUID().uuidString)"
        await #expect(throws: (any Error).self) {
            _ = try await Understudy.session(stubs: ["/nonexistent/stubs.json"], name: name)
        }
        #expect(try await !Understudy.shared().admin.sessions().contains { $0.name == name })
    }

    @Test func aDirectoryGivesEveryStubFileBelowItInPathOrder() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kit-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("b/.hidden"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("__files"), withIntermediateDirectories: true)
        func write(_ relative: String, _ status: Int) throws {
            try Data(
                #"{"stubs":[{"id":"\#(relative)","request":{"path":"/dir"},"responses":[{"status":\#(status)}]}]}"#.utf8
            )
            .write(to: directory.appendingPathComponent(relative))
        }
        try write("b/inner.json", 201)
        try write("a.json", 200)
        try write("b/.hidden/skipped.json", 500)
        try Data(#"{"a response body": true}"#.utf8).write(to: directory.appendingPathComponent("__files/body.json"))
        try Data("not json".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let session = try await Understudy.session(stubs: [directory.path])
        defer { session.stopWithoutWaiting() }
        #expect(try await session.admin.stubs().map(\.id) == ["a.json", "b/inner.json"])
        #expect(try await HTTP.send("GET", "/dir", to: session).status == 200, "a.json loads first")
    }

    @Test func theSharedDaemonIsOneLaunchedDaemonThatStopDoesNotEnd() async throws {
        let first = try await Understudy.shared()
        let again = try await Understudy.shared()
        #expect(first === again)
        #expect(await first.stop() == nil)
        #expect(try await first.admin.health().status == "ok", "stop() on the shared daemon leaves it running")
        if ProcessInfo.processInfo.environment["UNDERSTUDY_URL"] == nil {
            let pid = try #require(first.processIdentifier)
            #if os(Linux)
            // It dies with this process: it watches its stdin, a pipe whose write end only we hold.
            let arguments = try String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8).split(separator: "\0")
            #expect(arguments.contains("--exit-on-stdin-eof"))
            let stdin = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/0")
            #expect(stdin.hasPrefix("pipe:"), "stdin is \(stdin)")
            #endif
            #expect(try await first.admin.health().stubs == 0, "sessions bring their own stubs")
        }
    }

    @Test func sessionsOnADaemonWithAnAdminTokenCarryIt() async throws {
        let daemon = try await Understudy.launch(stubs: [Fixtures.path("echo.json")], adminToken: "kit-token")
        defer { daemon.stopWithoutWaiting() }
        let session = try await Understudy.session(name: "kit-token", on: daemon)
        #expect(try await session.admin.health().stubs == 2, "a session starts with its daemon's file stubs")
        #expect(try await HTTP.send("GET", "/harness/hello", to: session).body == "hello")
        let nested = try await Understudy.session(on: session)
        #expect(try await daemon.admin.sessions().count == 2, "a session handle as `on:` means its daemon")
        await nested.stop()
        await session.stop()
        #expect(try await daemon.admin.sessions().isEmpty)
    }

    @Test func pastTheDaemonsCapSessionThrowsTheDaemonsError() async throws {
        let daemon = try await Understudy.launch(
            stubs: [Fixtures.path("echo.json")], extraArguments: ["--max-sessions", "1"])
        defer { daemon.stopWithoutWaiting() }
        let first = try await Understudy.session(on: daemon)
        do {
            _ = try await Understudy.session(on: daemon)
            Issue.record("a second session should be refused")
        } catch let UnderstudyError.admin(error) {
            #expect(error.status == 503)
            #expect(error.message.contains("1"), "names the cap: \(error.message)")
        }
        await first.stop()
        let again = try await Understudy.session(on: daemon)
        #expect(try await again.admin.health().stubs == 2, "deleting the first made room")
        await again.stop()
    }

    @Test func waitForRequestsReturnsWhenTheRequestsArriveAndThrowsWithWhatCameAtTheDeadline() async throws {
        let session = try await Understudy.session(stubs: [Fixtures.path("echo.json")])
        defer { session.stopWithoutWaiting() }
        async let waited = session.admin.waitForRequests(path: "/harness/hello", count: 2, timeout: 20)
        try await HTTP.send("GET", "/harness/hello", to: session)
        try await HTTP.send("POST", "/harness/echo", to: session)
        try await HTTP.send("GET", "/harness/hello", to: session)
        #expect(try await waited.map(\.seq) == [1, 3])

        let quiet = try await session.admin.requestsAfterWaiting(
            RequestFilter(path: "/harness/hello"), count: 3, timeout: 0.2)
        #expect(quiet.timedOut, "no third request came")
        #expect(quiet.requests.count == 2)
        do {
            try await session.admin.waitForRequests(RequestFilter(method: "POST"), count: 2, timeout: 0.2)
            Issue.record("the wait should have timed out")
        } catch let UnderstudyError.waitTimedOut(expected, _, arrived) {
            #expect(expected == 2)
            #expect(arrived.map(\.seq) == [2])
        }
    }

    @Test func findMatchesHeadersQueriesAndBodies() async throws {
        let session = try await Understudy.session(stubs: [Fixtures.path("echo.json")])
        defer { session.stopWithoutWaiting() }
        try await HTTP.send(
            "POST", "/harness/echo?dry=1", to: session, body: #"{"sku":"A-1","n":2}"#, headers: ["X-Key": "k1"])
        try await HTTP.send("POST", "/harness/echo", to: session, body: #"{"sku":"B-2"}"#)
        try await HTTP.send("GET", "/harness/hello", to: session, headers: ["X-Key": "k2"])
        #expect(
            try await session.admin.find(matching: RequestMatcher(headers: ["X-Key": .present])).map(\.seq) == [1, 3])
        #expect(try await session.admin.find(matching: RequestMatcher(query: ["dry": "1"])).map(\.seq) == [1])
        #expect(
            try await session.admin.find(matching: RequestMatcher(method: "POST", body: ["jsonSubset": ["sku": "B-2"]]))
                .map(\.seq) == [2])
        #expect(try await session.admin.find(matching: RequestMatcher(path: "/harness/none")).isEmpty)
    }

    /// The trait's own work, driven by hand so its outcome can be checked: a session in
    /// `Understudy.current` during the test, unmatched requests recorded as issues at the end,
    /// the session deleted afterwards — also when the test throws.
    @Test func theTraitRecordsUnmatchedRequestsAtTheEndAndDeletesTheSession() async throws {
        let test = try #require(Test.current)
        let trait: UnderstudyTrait = .understudy(stubs: Fixtures.path("echo.json"))
        let seen = SeenSession()
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: nil) {
                let session = try #require(Understudy.current)
                seen.id = session.sessionID
                try await HTTP.send("GET", "/harness/never-stubbed", to: session)
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("/harness/never-stubbed") && $0.rawValue.contains("404") }
                && issue.sourceLocation == test.sourceLocation
        }
        #expect(try await Self.waitUntilGone(try #require(seen.id)))

        struct Thrown: Error {}
        await #expect(throws: Thrown.self) {
            try await trait.provideScope(for: test, testCase: nil) {
                seen.id = Understudy.current?.sessionID
                throw Thrown()
            }
        }
        #expect(try await Self.waitUntilGone(try #require(seen.id)))
        #expect(Understudy.current == nil, "only inside the scope")
    }
}

/// A session id handed out of a `@Sendable` scope.
private final class SeenSession: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    var id: String? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
