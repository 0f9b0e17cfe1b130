import Foundation
import XCTest

/// Clients that misbehave against the real daemon: thousands of keep-alive connections, idle and
/// trickling (slowloris) connections, and clients that hang up mid-delay or mid-response.
final class AbusiveClientTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    func testTwoThousandConcurrentKeepAliveConnectionsAreAllServed() throws {
        let count = 2_000
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        // The test process holds one descriptor per connection too.
        try XCTSkipIf(limit.rlim_cur < rlim_t(count + 200), "this process may open only \(limit.rlim_cur) files")
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let daemon = try Daemon([stubs, "--quiet", "--max-connections", "\(count + 100)"], directory: directory)
        var connections: [RawConnection] = []
        for index in 0..<count {
            do {
                connections.append(try RawConnection(port: daemon.port))
            } catch {
                return XCTFail("connection \(index) failed: \(error); daemon stderr: \(daemon.stderr)")
            }
        }
        // The daemon holds every one of them at once. A connect() returns once the kernel has queued
        // the connection, before the daemon's accept(), so poll with a deadline rather than count once.
        let descriptors = {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.processIdentifier)/fd").count)
                ?? 0
        }
        _ = waitUntil(timeout: 20) { descriptors() >= count }
        XCTAssertGreaterThanOrEqual(descriptors(), count, "descriptors open in the daemon")
        // Two rounds: every connection is still open and served after all the others were.
        for round in 0..<2 {
            for connection in connections {
                connection.send("GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            }
            var served = 0
            for connection in connections where connection.readResponse()?.status == 200 {
                served += 1
            }
            XCTAssertEqual(
                served, count,
                "round \(round): \(served) of \(count) keep-alive connections served; stderr: \(daemon.stderr)")
        }
        let health = try XCTUnwrap(try HTTPClientSync.json(port: daemon.port, "/__admin/health"))
        XCTAssertEqual(health["requests"] as? Int, 2 * count)
        connections.removeAll()
        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0)
    }

    func testIdleAndTricklingConnectionsDoNotStarveOthersAndIdleOnesAreClosed() throws {
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let daemon = try Daemon([stubs, "--quiet", "--idle-timeout", "2"], directory: directory)
        let idle = try (0..<200).map { _ in try RawConnection(port: daemon.port) }
        let trickling = try (0..<50).map { _ in try RawConnection(port: daemon.port) }
        for connection in trickling { connection.send("GET /ok HTTP/1.1\r\nHo") }
        // Meanwhile an ordinary client is served, on time, on every try.
        let start = Date()
        for _ in 0..<50 {
            XCTAssertEqual(HardeningFixtures.status(port: daemon.port, "/ok"), 200)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "50 requests beside 250 stalled connections")
        // Idle connections are closed by the server (not by the 5 s client read timeout).
        let closing = Date()
        for connection in idle.prefix(20) {
            XCTAssertTrue(connection.readsEndOfStream())
        }
        XCTAssertLessThan(Date().timeIntervalSince(closing), 4.5)
        // A stalled head that stays silent past the timeout is closed too.
        XCTAssertTrue(trickling[0].readsEndOfStream())
        XCTAssertEqual(HardeningFixtures.status(port: daemon.port, "/ok"), 200)
    }

    func testClientsHangingUpMidDelayAndMidResponseLeaveTheJournalWhole() throws {
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let journal = directory + "/journal.jsonl"
        let daemon = try Daemon([stubs, "--quiet", "--journal", journal], directory: directory)
        var sent: [String] = []
        for index in 0..<20 {
            // Mid-response: the 1 MiB body has started arriving; reset the connection.
            let big = try RudeConnection(port: daemon.port)
            big.send("GET /big?soak=big-\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(big.readHeadStatus(), 200)
            big.abort()
            sent.append("big-\(index)")
        }
        var delayed: [RudeConnection] = []
        for index in 0..<20 {
            let slow = try RudeConnection(port: daemon.port)
            slow.send("GET /slower?soak=slower-\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            delayed.append(slow)
            sent.append("slower-\(index)")
        }
        // Every delayed request has been received (journaled) before the clients give up mid-delay.
        XCTAssertTrue(waitUntil { HardeningFixtures.journal(journal).count == 40 })
        for connection in delayed { connection.abort() }
        for index in 0..<20 {
            XCTAssertEqual(HardeningFixtures.status(port: daemon.port, "/ok?soak=after-\(index)"), 200)
            sent.append("after-\(index)")
        }
        // A delayed request sent after the aborts is answered after every aborted delay has fired
        // into its closed connection; nothing was disturbed.
        XCTAssertEqual(HardeningFixtures.status(port: daemon.port, "/slower?soak=witness"), 200)
        sent.append("witness")
        XCTAssertEqual(HardeningFixtures.status(port: daemon.port, "/ok?soak=last"), 200)
        sent.append("last")
        let counts = HardeningFixtures.journaledIDs(journal)
        XCTAssertEqual(counts.count, sent.count)
        for id in sent { XCTAssertEqual(counts[id], 1, id) }
        let seqs = HardeningFixtures.journal(journal).compactMap { $0["seq"] as? Int }
        XCTAssertEqual(seqs, Array(1...sent.count))
        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0)
    }
}
