import Foundation
import XCTest

/// The daemon's lifecycle from the outside (issue 9): `serve --detach` lets go of the caller's
/// descriptors, `stop` knows a zombie or a removed pid file means the daemon is gone, and a
/// delayed answer whose client has left does not hold up a stop. All against the built binary,
/// driven through bash as a shell script would.
final class LifecycleTests: XCTestCase {
    private var directory: String!
    private var pidFiles: [String] = []

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
    }

    override func tearDown() {
        // Never leave a daemon behind a failed test.
        for pidFile in pidFiles {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                kill(pid, SIGKILL)
            }
        }
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    private func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    private func bash(_ script: String, timeout: TimeInterval = 20) throws -> PipedRun {
        try PipedRun.run("/bin/bash", ["-c", script], timeout: timeout)
    }

    private func pid(in pidFile: String) throws -> pid_t {
        try XCTUnwrap(
            pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    func testDetachInCommandSubstitutionReturnsOnceReady() throws {
        let pidFile = directory + "/pid"
        pidFiles.append(pidFile)
        // The shell waits for EOF on the pipe behind $(...), which every holder must close.
        let run = try bash(
            """
            out=$(\(quoted(TestPaths.binary)) serve \(quoted(TestPaths.fixture("valid"))) --detach --pid-file \(quoted(pidFile)) 2>&1)
            status=$?
            printf '%s\\n' "$out"
            exit $status
            """)
        XCTAssertTrue(run.finished, "out=$(understudy serve --detach 2>&1) did not return: \(run)")
        XCTAssertEqual(run.exitCode, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("understudy listening on http://127.0.0.1:"), run.stdout)
        let port = try XCTUnwrap(
            run.stdout.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        XCTAssertEqual(
            try curl(["-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/hello"]).stdout, "200",
            "and the daemon serves on")
        XCTAssertEqual(try runUnderstudy(["stop", "--pid-file", pidFile]).exitCode, 0)
    }

    func testADetachedDaemonHoldsNoneOfTheCallersStandardDescriptors() throws {
        let pidFile = directory + "/pid"
        pidFiles.append(pidFile)
        let run = try PipedRun.run(
            TestPaths.binary, ["serve", TestPaths.fixture("valid"), "--detach", "--pid-file", pidFile],
            timeout: 20)
        XCTAssertTrue(run.finished, "the caller's stdout and stderr pipes reached EOF: \(run)")
        XCTAssertEqual(run.exitCode, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let daemon = try pid(in: pidFile)
        for fd in 0...2 {
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon)/fd/\(fd)")
            XCTAssertEqual(target, "/dev/null", "fd \(fd)")
        }
        XCTAssertEqual(try runUnderstudy(["stop", "--pid-file", pidFile]).exitCode, 0)
    }

    func testADetachedDaemonLogsToTheLogFileAndQuietStillSilencesIt() throws {
        for quiet in [false, true] {
            let pidFile = directory + "/pid-\(quiet)", log = directory + "/log-\(quiet)",
                portFile = directory + "/port-\(quiet)"
            pidFiles.append(pidFile)
            let run = try PipedRun.run(
                TestPaths.binary,
                [
                    "serve", TestPaths.fixture("valid"), "--detach", "--pid-file", pidFile,
                    "--port-file", portFile, "--log-file", log,
                ] + (quiet ? ["--quiet"] : []),
                timeout: 20)
            XCTAssertTrue(run.finished, "\(run)")
            XCTAssertEqual(run.exitCode, 0, run.stderr)
            let port = try String(contentsOfFile: portFile, encoding: .utf8).trimmingCharacters(in: .newlines)
            XCTAssertEqual(
                try curl(["-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/hello"]).stdout, "200")
            XCTAssertEqual(try runUnderstudy(["stop", "--pid-file", pidFile]).exitCode, 0)
            let text = try String(contentsOfFile: log, encoding: .utf8)
            if quiet {
                XCTAssertEqual(text, "", "--quiet: no access log, in the file either")
            } else {
                XCTAssertTrue(text.contains("GET /hello 200 hello "), text)
            }
        }
    }

    func testAnUnwritableLogFileIsAStartUpError() throws {
        let run = try PipedRun.run(
            TestPaths.binary,
            [
                "serve", TestPaths.fixture("valid"), "--detach",
                "--log-file", directory + "/missing/dir/log",
            ], timeout: 20)
        XCTAssertTrue(run.finished)
        XCTAssertEqual(run.exitCode, 1)
        XCTAssertTrue(run.stderr.contains("cannot open log file"), run.stderr)
    }

    func testStopReturnsAtOnceWhenTheDaemonIsAZombie() throws {
        let pidFile = directory + "/pid"
        pidFiles.append(pidFile)
        // bash starts the daemon in the background, then becomes `sleep`, which never reaps it:
        // once stopped, the daemon stays a zombie until `sleep` goes.
        var parent: pid_t = 0
        let script =
            "\(quoted(TestPaths.binary)) serve \(quoted(TestPaths.fixture("valid"))) --quiet --pid-file \(quoted(pidFile)) >/dev/null 2>&1 & exec sleep 60"
        let argv: [UnsafeMutablePointer<CChar>?] = (["/bin/bash", "-c", script] as [String]).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        XCTAssertEqual(posix_spawn(&parent, "/bin/bash", nil, nil, argv, environ), 0)
        defer {
            kill(parent, SIGKILL)
            var status: Int32 = 0
            waitpid(parent, &status, 0)
        }
        XCTAssertTrue(waitUntil { FileManager.default.fileExists(atPath: pidFile) }, "the daemon started")
        let daemon = try pid(in: pidFile)

        let started = Date()
        let stopped = try runUnderstudy(["stop", "--pid-file", pidFile, "--timeout", "5"])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(stopped.exitCode, 0, stopped.stderr)
        XCTAssertLessThan(seconds, 2.5, "a zombie is a daemon that has exited; no need to wait out --timeout")
        XCTAssertTrue(waitUntil(timeout: 5) { processHasEnded(daemon) })
        XCTAssertEqual(kill(daemon, 0), 0, "still there, unreaped: the case under test")
    }

    func testStoppingAnIdleDaemonIsQuickAndAMissingPidFileMeansNotRunning() throws {
        let pidFile = directory + "/pid"
        pidFiles.append(pidFile)
        XCTAssertEqual(
            try runUnderstudy(["serve", TestPaths.fixture("valid"), "--detach", "--quiet", "--pid-file", pidFile])
                .exitCode, 0)
        let started = Date()
        let stopped = try runUnderstudy(["stop", "--pid-file", pidFile])
        XCTAssertEqual(stopped.exitCode, 0, stopped.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "an idle daemon stops in milliseconds")
        let again = try runUnderstudy(["stop", "--pid-file", pidFile])
        XCTAssertEqual(again.exitCode, 0, "no pid file: nothing to stop")
        XCTAssertTrue(again.stderr.contains("not running"), again.stderr)
    }

    func testStopIsPromptWhenTheClientOfADelayedAnswerHasLeft() throws {
        let pidFile = directory + "/pid", portFile = directory + "/port", journal = directory + "/journal.jsonl"
        pidFiles.append(pidFile)
        let started = try runUnderstudy([
            "serve", TestPaths.fixture("valid"), "--detach", "--quiet", "--pid-file", pidFile,
            "--port-file", portFile, "--journal", journal,
        ])
        XCTAssertEqual(started.exitCode, 0, started.stderr)
        let url =
            "http://127.0.0.1:"
            + (try String(contentsOfFile: portFile, encoding: .utf8).trimmingCharacters(in: .newlines))
        _ = try curl([
            "-X", "POST", url + "/__admin/stubs", "--data-binary",
            #"{"stubs":[{"id":"late","request":{"path":"/late"},"responses":[{"body":"late","delayMs":20000}]}]}"#,
        ])
        // The client gives up after half a second, long before the answer is due.
        let gaveUp = try bash("curl -s -o /dev/null --max-time 0.5 \(quoted(url + "/late")); echo $?")
        XCTAssertEqual(gaveUp.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "28", "curl timed out")
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                (try? String(contentsOfFile: journal, encoding: .utf8))?.contains("client-gone") ?? false
            })

        let stopStarted = Date()
        let stopped = try runUnderstudy(["stop", "--pid-file", pidFile])
        XCTAssertEqual(stopped.exitCode, 0, stopped.stderr)
        // Before the fix: the full 5 s grace period, the delay being longer.
        XCTAssertLessThan(Date().timeIntervalSince(stopStarted), 2.5, "nothing is left to wait for")
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 1)
        let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(entry["outcome"] as? String, "client-gone")
        XCTAssertTrue(entry["status"] is NSNull, "no status was sent: \(entry)")
        let held = try XCTUnwrap(entry["outcomeMs"] as? Double) - (try XCTUnwrap(entry["elapsedMs"] as? Double))
        XCTAssertGreaterThanOrEqual(held, 400, "the client waited about half a second before leaving")
    }
}
