import Foundation
import UnderstudyServer
import XCTest

/// Signals during load, a journal that cannot be written, stub files changing under a reload, a
/// port already in use, and a detached daemon whose terminal goes away.
final class SignalsAndFilesTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    func testSigtermDuringLoadAfterSighupReloadsLosesNothing() throws {
        try assertStopDuringLoad(signal: SIGTERM)
    }

    func testSigintDuringLoadAfterSighupReloadsLosesNothing() throws {
        try assertStopDuringLoad(signal: SIGINT)
    }

    private func assertStopDuringLoad(signal stopSignal: Int32, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let journal = directory + "/journal.jsonl"
        let daemon = try Daemon([stubs, "--quiet", "--journal", journal], directory: directory)
        let load = LoadRecorder(port: daemon.port, threads: 4)
        // Reloads under load: each waits for more traffic first, so every one lands mid-stream.
        for round in 1...5 {
            let target = round * 200
            XCTAssertTrue(waitUntil { load.answered.count >= target }, "load reached \(target)", file: file, line: line)
            daemon.signal(SIGHUP)
        }
        XCTAssertTrue(waitUntil { load.answered.count >= 1_500 }, file: file, line: line)
        daemon.signal(stopSignal)
        XCTAssertEqual(daemon.waitForExit(), 0, daemon.stderr, file: file, line: line)
        XCTAssertTrue(load.stop(), "client threads finished", file: file, line: line)

        let answered = load.answered
        let counts = HardeningFixtures.journaledIDs(journal)
        XCTAssertEqual(
            answered.filter { counts[$0] != 1 }, [], "answered requests not journaled exactly once", file: file,
            line: line)
        XCTAssertEqual(counts.values.filter { $0 != 1 }, [], "a request journaled twice", file: file, line: line)
        // Requests received but not answered before the stop may be journaled; nothing else is.
        XCTAssertLessThanOrEqual(counts.count - answered.count, 4, file: file, line: line)
        let seqs = HardeningFixtures.journal(journal).compactMap { $0["seq"] as? Int }
        XCTAssertEqual(seqs, Array(1...seqs.count), "seq in order with no gap", file: file, line: line)
        XCTAssertFalse(daemon.stderr.contains("reload failed"), daemon.stderr, file: file, line: line)
    }

    func testJournalOnAFullDiskKeepsServingAndSaysSoOncePerBurst() throws {
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let daemon = try Daemon([stubs, "--quiet", "--journal", "/dev/full"], directory: directory)
        for index in 0..<50 {
            XCTAssertEqual(HardeningFixtures.status(port: daemon.port, "/ok?n=\(index)"), 200)
        }
        let health = try XCTUnwrap(try HTTPClientSync.json(port: daemon.port, "/__admin/health"))
        XCTAssertEqual(health["requests"] as? Int, 50, "the in-memory journal still has every request")
        let reports = daemon.stderr.components(separatedBy: "\n").filter { $0.contains("No space left on device") }
        XCTAssertEqual(reports.count, 1, "reported once for the burst, not per request: \(daemon.stderr)")
        XCTAssertTrue(reports.first?.contains("/dev/full") ?? false, daemon.stderr)
        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0)
    }

    func testJournalPathThatCannotBeOpenedStopsStartupWithItsReason() throws {
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let result = try runUnderstudy(["serve", stubs, "--journal", directory, "--port", "0"])
        XCTAssertNotEqual(result.exitCode, 0)
        XCTAssertEqual(result.stdout, "", "never announced as listening")
        XCTAssertTrue(result.stderr.contains(directory), result.stderr)
        XCTAssertTrue(result.stderr.contains("Is a directory"), result.stderr)
    }

    func testPortAlreadyInUseExitsNonZeroWithAClearMessage() throws {
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let holder = try Daemon([stubs, "--quiet"], directory: directory)
        let result = try runUnderstudy(["serve", stubs, "--port", "\(holder.port)"])
        XCTAssertEqual(result.exitCode, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(
            result.stderr.contains("cannot listen on 127.0.0.1:\(holder.port): Address already in use"), result.stderr)
        XCTAssertEqual(HardeningFixtures.status(port: holder.port, "/ok"), 200, "the first daemon is untouched")
    }

    func testReloadsWhileStubFilesAreRewrittenAreAllOrNothing() throws {
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let changing = stubs + "/changing.json"
        let two =
            #"{"stubs":[{"id":"v-a1","request":{"path":"/v"},"responses":[{"body":"A"}]},{"id":"v-a2","request":{"path":"/w"},"responses":[{"body":"A"}]}]}"#
        let three =
            #"{"stubs":[{"id":"v-b1","request":{"path":"/v"},"responses":[{"body":"B"}]},{"id":"v-b2","request":{"path":"/w"},"responses":[{"body":"B"}]},{"id":"v-b3","request":{"path":"/x"},"responses":[{"body":"B"}]}]}"#
        try two.write(toFile: changing, atomically: true, encoding: .utf8)
        let daemon = try Daemon([stubs, "--quiet"], directory: directory)
        let base = try XCTUnwrap(try HTTPClientSync.json(port: daemon.port, "/__admin/health")?["stubs"] as? Int) - 2

        let writer = FileRewriter(path: changing, versions: [two, three])
        var outcomes: [String: Int] = [:]
        var wholeFileReloads = 0
        for iteration in 0..<150 {
            // Every tenth reload runs while the file is whole: it must load one version or the other.
            let whole = iteration % 10 == 9
            let reload = {
                let connection = try RawConnection(port: daemon.port)
                connection.send("POST /__admin/reload HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
                return try XCTUnwrap(connection.readResponse())
            }
            let response = whole ? try writer.withWholeFile(reload) : try reload()
            let body = try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any] ?? [:]
            let count = body["stubs"] as? Int
            if response.status == 200 && count == base + 2 {
                outcomes["A", default: 0] += 1
                if whole { wholeFileReloads += 1 }
            } else if response.status == 200 && count == base + 3 {
                outcomes["B", default: 0] += 1
                if whole { wholeFileReloads += 1 }
            } else if response.status == 400, count == nil, (body["errors"] as? [Any])?.isEmpty == false {
                XCTAssertFalse(whole, "a reload of a whole file was refused: \(response.body)")
                outcomes["refused", default: 0] += 1
            } else {
                XCTFail("reload answered \(response.status) \(response.body)")
            }
            XCTAssertEqual(HardeningFixtures.status(port: daemon.port, "/ok"), 200)
        }
        writer.stop()
        try three.write(toFile: changing, atomically: true, encoding: .utf8)
        XCTAssertEqual(
            try HTTPClientSync.json(port: daemon.port, "/__admin/reload", method: "POST")?["stubs"] as? Int, base + 3)
        XCTAssertEqual(HardeningFixtures.status(port: daemon.port, "/x"), 200)
        XCTAssertGreaterThan(writer.writes, 10, "the file really changed under the reloads")
        XCTAssertEqual(outcomes.values.reduce(0, +), 150, "\(outcomes)")
        XCTAssertEqual(wholeFileReloads, 15, "every reload of a whole file loaded it: \(outcomes)")
        print("reloads during rewrites: \(outcomes)")
    }

    func testDetachedDaemonOutlivesTheTerminalItWasStartedFrom() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux `script` provides the terminal"
        )
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let pidFile = directory + "/pid", portFile = directory + "/port"
        // `script` runs the command on a new pseudo-terminal and closes it when the command returns:
        // the terminal hangs up under the detached daemon.
        let command =
            "'\(TestPaths.binary)' serve '\(stubs)' --detach --pid-file '\(pidFile)' --port-file '\(portFile)'"
        let terminal = Process()
        terminal.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        terminal.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        terminal.standardInput = FileHandle.nullDevice
        terminal.standardOutput = FileHandle.nullDevice
        terminal.standardError = FileHandle.nullDevice
        try terminal.run()
        XCTAssertTrue(waitUntil(timeout: 20) { !terminal.isRunning }, "serve --detach returned")
        XCTAssertEqual(terminal.terminationStatus, 0)
        let pid = try XCTUnwrap(
            pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .newlines)))
        let port = try XCTUnwrap(
            Int(try String(contentsOfFile: portFile, encoding: .utf8).trimmingCharacters(in: .newlines)))
        defer { if kill(pid, 0) == 0 { kill(pid, SIGKILL) } }
        // The access log is on: each request writes a line where the terminal used to be.
        for index in 0..<20 {
            XCTAssertEqual(HardeningFixtures.status(port: port, "/ok?n=\(index)"), 200)
        }
        XCTAssertEqual(kill(pid, 0), 0, "the daemon outlived its terminal")
        let stopped = try runUnderstudy(["stop", "--pid-file", pidFile])
        XCTAssertEqual(stopped.exitCode, 0, stopped.stderr)
        // `stop` returns once the pid file is gone, the daemon's last act before it exits.
        XCTAssertTrue(waitUntil(timeout: 5) { processHasEnded(pid) }, "the daemon is gone")
    }
}
