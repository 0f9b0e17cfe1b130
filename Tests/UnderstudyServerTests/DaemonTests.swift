import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyServer
import XCTest

/// The built `understudy` binary: readiness, pid/port files, signals, the JSON Lines journal,
/// `--detach`, `stop` and `check`.
final class DaemonTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: TestPaths.binary), TestPaths.binary)
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    func testReadinessLinePortAndPidFilesAndCleanExitOnSigterm() throws {
        let portFile = directory + "/port", pidFile = directory + "/pid"
        let daemon = try Daemon(
            [TestPaths.fixture("valid"), "--port", "0", "--port-file", portFile, "--pid-file", pidFile],
            directory: directory)
        XCTAssertNotNil(
            daemon.readinessLine.range(
                of: #"^understudy listening on http://127\.0\.0\.1:[0-9]+$"#, options: .regularExpression),
            daemon.readinessLine)
        XCTAssertEqual(try String(contentsOfFile: portFile, encoding: .utf8), "\(daemon.port)\n")
        XCTAssertEqual(try String(contentsOfFile: pidFile, encoding: .utf8), "\(daemon.process.processIdentifier)\n")
        let hello = try curl(["-i", daemon.url + "/hello"])
        XCTAssertTrue(hello.stdout.hasPrefix("HTTP/1.1 200 OK"), hello.stdout)

        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: portFile))
        XCTAssertFalse(FileManager.default.fileExists(atPath: pidFile))
        XCTAssertTrue(daemon.stderr.contains("GET /hello 200 hello "), daemon.stderr)
    }

    func testQuietTurnsTheAccessLogOffAndSigintStopsCleanly() throws {
        let daemon = try Daemon([TestPaths.fixture("valid"), "--quiet"], directory: directory)
        _ = try curl([daemon.url + "/hello"])
        daemon.signal(SIGINT)
        XCTAssertEqual(daemon.waitForExit(), 0)
        XCTAssertEqual(daemon.stderr, "")
    }

    func testSigtermWithRequestsInFlightAnswersThemAndJournalsEachOnce() async throws {
        let journal = directory + "/journal.jsonl"
        let daemon = try Daemon([TestPaths.fixture("valid"), "--journal", journal, "--quiet"], directory: directory)
        // Long enough that the six requests are surely all waiting when SIGTERM comes.
        let added = try curl([
            "-X", "POST", daemon.url + "/__admin/stubs", "--data-binary",
            #"{"stubs":[{"id":"slower","request":{"path":"/slower"},"responses":[{"body":"slow","delayMs":2000}]}]}"#,
        ])
        XCTAssertTrue(added.stdout.contains("slower"), added.stdout + added.stderr)
        let client = HTTPClient(base: daemon.url)
        async let slow = withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 { group.addTask { try await client.fetch("/slower").status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        // Every slow request has been received once the daemon counts six pending answers (they
        // are journaled when answered).
        XCTAssertTrue(waitUntil { (try? Self.pending(daemon.url)) == 6 })
        XCTAssertEqual(Self.lines(journal).count, 0, "a delayed request is journaled when its answer goes out")
        daemon.signal(SIGTERM)
        let statuses = try await slow
        XCTAssertEqual(statuses, Array(repeating: 200, count: 6), "in-flight delayed responses finish")
        XCTAssertEqual(daemon.waitForExit(), 0)

        let entries = try Self.lines(journal).map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        XCTAssertEqual(entries.count, 6)
        XCTAssertEqual(Set(entries.compactMap { $0["seq"] as? Int }), Set(1...6), "each answered request exactly once")
        XCTAssertTrue(entries.allSatisfy { $0["path"] as? String == "/slower" && $0["status"] as? Int == 200 })
        XCTAssertTrue(entries.allSatisfy { $0["outcome"] as? String == "answered" })
    }

    /// `pending` from `GET /__admin/health`: requests whose delayed answer is not out yet.
    static func pending(_ url: String) throws -> Int? {
        let health = try curl([url + "/__admin/health"])
        let object = try JSONSerialization.jsonObject(with: Data(health.stdout.utf8)) as? [String: Any]
        return object?["pending"] as? Int
    }

    func testJournalFileHoldsAnEntryBeforeTheClientHasItsResponse() async throws {
        let journal = directory + "/journal.jsonl"
        let daemon = try Daemon([TestPaths.fixture("valid"), "--journal", journal, "--quiet"], directory: directory)
        let client = HTTPClient(base: daemon.url)
        for index in 1...10 {
            _ = try await client.fetch("/hello?n=\(index)")
            let lines = Self.lines(journal)
            XCTAssertEqual(lines.count, index)
            XCTAssertTrue(lines.last?.contains("\"query\":\"n=\(index)\"") ?? false, lines.last ?? "")
        }
        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0)
    }

    func testSighupReloadsAndKeepsOldStubsWhenAFileIsInvalid() throws {
        let stubs = directory + "/stubs"
        try FileManager.default.createDirectory(atPath: stubs, withIntermediateDirectories: true)
        let file = stubs + "/basic.json"
        let original = try String(contentsOfFile: TestPaths.fixture("valid/basic.json"), encoding: .utf8)
        try original.write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = try Daemon([stubs], directory: directory)

        try original.replacingOccurrences(of: "\"hello\": \"world\"", with: "\"hello\": \"reloaded\"")
            .write(toFile: file, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        XCTAssertTrue(try waitUntil { try curl([daemon.url + "/hello"]).stdout.contains("reloaded") })

        try original.replacingOccurrences(of: "\"path\": \"/hello\"", with: "\"pth\": \"/hello\"")
            .write(toFile: file, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        XCTAssertTrue(waitUntil { daemon.stderr.contains("reload failed") }, daemon.stderr)
        XCTAssertTrue(daemon.stderr.contains("basic.json:"), daemon.stderr)
        XCTAssertTrue(try curl([daemon.url + "/hello"]).stdout.contains("reloaded"), "the previous stubs keep serving")
        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0)
    }

    func testDetachReturnsOnceReadyAndStopEndsTheDaemon() throws {
        let pidFile = directory + "/pid", portFile = directory + "/port"
        let started = try runUnderstudy([
            "serve", TestPaths.fixture("valid"), "--detach", "--quiet",
            "--pid-file", pidFile, "--port-file", portFile,
        ])
        XCTAssertEqual(started.exitCode, 0, started.stderr)
        let line = started.stdout.trimmingCharacters(in: .newlines)
        XCTAssertTrue(line.hasPrefix("understudy listening on http://127.0.0.1:"), line)
        let port = try XCTUnwrap(
            Int(try String(contentsOfFile: portFile, encoding: .utf8).trimmingCharacters(in: .newlines)))
        XCTAssertTrue(line.hasSuffix(":\(port)"))
        // Ready means ready: the first request after the command returns is answered.
        XCTAssertEqual(
            try curl(["-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/hello"]).stdout, "200")
        let pid = try XCTUnwrap(
            pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .newlines)))
        XCTAssertEqual(kill(pid, 0), 0, "the daemon runs on")

        let stopped = try runUnderstudy(["stop", "--pid-file", pidFile])
        XCTAssertEqual(stopped.exitCode, 0, stopped.stderr)
        // `stop` returns once the pid file is gone, the daemon's last act before it exits.
        XCTAssertTrue(waitUntil(timeout: 5) { processHasEnded(pid) }, "the daemon is gone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: pidFile))
        XCTAssertFalse(FileManager.default.fileExists(atPath: portFile))
    }

    func testDetachFailuresExitNonZeroAndLeaveNoProcess() throws {
        let marker = directory + "/marker-pid"
        let invalid = try runUnderstudy(["serve", TestPaths.fixture("invalid"), "--detach", "--pid-file", marker])
        XCTAssertEqual(invalid.exitCode, 1)
        XCTAssertTrue(invalid.stderr.contains("typo.json:7:11: error: unknown key `staus`"), invalid.stderr)
        XCTAssertEqual(invalid.stdout, "")

        let blocker = try BackgroundServer.start { RecordingResponder(log: RequestLog()) }
        defer { blocker.stop() }
        let inUse = try runUnderstudy([
            "serve", TestPaths.fixture("valid"), "--detach", "--port", "\(blocker.port)", "--pid-file", marker,
        ])
        XCTAssertEqual(inUse.exitCode, 1)
        XCTAssertTrue(
            inUse.stderr.contains("cannot listen on 127.0.0.1:\(blocker.port): Address already in use"), inUse.stderr)

        let missing = try runUnderstudy(["serve", directory + "/does-not-exist", "--detach", "--pid-file", marker])
        XCTAssertEqual(missing.exitCode, 1)
        XCTAssertTrue(missing.stderr.contains("does-not-exist"), missing.stderr)

        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))
        XCTAssertEqual(Self.processes(mentioning: directory), [], "no daemon left behind")
    }

    func testCheckPrintsEditorStyleErrorsAndExitCodes() throws {
        let bad = try runUnderstudy(["check", TestPaths.fixture("invalid")])
        XCTAssertEqual(bad.exitCode, 1)
        let lines = bad.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, bad.stdout)
        for line in lines {
            XCTAssertNotNil(line.range(of: #"^/.+\.json:[0-9]+:[0-9]+: error: .+"#, options: .regularExpression), line)
        }
        XCTAssertTrue(
            lines.contains {
                $0.hasPrefix(
                    TestPaths.fixture("invalid/typo.json") + ":7:11: error: unknown key `staus`; did you mean `status`?"
                )
            }, bad.stdout)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix(TestPaths.fixture("invalid/bad-fault.json") + ":6:48: error:") }, bad.stdout)

        let good = try runUnderstudy(["check", TestPaths.fixture("valid")])
        XCTAssertEqual(good.exitCode, 0, good.stdout)
        XCTAssertTrue(good.stdout.contains("11 stubs OK"), good.stdout)
    }

    func testNonLoopbackHostWarns() throws {
        // A non-loopback bind needs --allow-remote since the hardening; refusal is in Security/BindAndLimitsCLITests.
        let daemon = try Daemon(
            [TestPaths.fixture("valid"), "--host", "0.0.0.0", "--allow-remote", "--quiet"], directory: directory)
        XCTAssertTrue(daemon.readinessLine.hasPrefix("understudy listening on http://0.0.0.0:"), daemon.readinessLine)
        XCTAssertTrue(daemon.stderr.contains("warning: listening on 0.0.0.0"), daemon.stderr)
        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0)
    }

    func testMaxBodyAndUnmatchedStatusOptions() throws {
        let daemon = try Daemon(
            [TestPaths.fixture("valid"), "--max-body", "100", "--unmatched-status", "418"], directory: directory)
        let big = try curl([
            "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", String(repeating: "x", count: 200),
            daemon.url + "/items",
        ])
        XCTAssertEqual(big.stdout, "413")
        let unmatched = try curl(["-o", "/dev/null", "-w", "%{http_code}", daemon.url + "/nothing-here"])
        XCTAssertEqual(unmatched.stdout, "418")
        let journal = try curl([daemon.url + "/__admin/requests"])
        let entries = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(journal.stdout.utf8)) as? [String: Any])?["requests"]
                as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["status"] as? Int }, [413, 418])
        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0)
    }

    private static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Process ids whose command line mentions `text`.
    private static func processes(mentioning text: String) -> [Int] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int($0) }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(text)
        }
    }
}
