import Foundation
import UnderstudyCore
import UnderstudyServer
import XCTest

/// The journal tells what went over the wire (issue 9, "journal truth"; issue 16, "responses in
/// the journal"): faults carry no status unless a status line was sent, a client that leaves a
/// delayed answer is recorded as gone and does not hold up a stop, and each entry records the
/// response head and body exactly as the client received them.
final class JournalTruthTransportTests: XCTestCase {
    private static let stubs = #"""
        {"stubs":[
          {"id":"ok","request":{"path":"/ok"},"responses":[{"status":201,"headers":{"X-One":"1","X-Two":["a","b"]},"json":{"ok":true}}]},
          {"id":"late","request":{"path":"/late"},"responses":[{"status":200,"delayMs":20000,"body":"late"}]},
          {"id":"reset","request":{"path":"/fault/connection-reset"},"responses":[{"status":500,"fault":"connection-reset"}]},
          {"id":"empty","request":{"path":"/fault/empty-response"},"responses":[{"status":500,"fault":"empty-response"}]},
          {"id":"garbage","request":{"path":"/fault/malformed-response"},"responses":[{"status":500,"fault":"malformed-response"}]},
          {"id":"head","request":{"path":"/fault/close-after-headers"},"responses":[{"status":202,"headers":{"X-H":"h"},"fault":"close-after-headers","body":"cut"}]}
        ]}
        """#

    private var server: BackgroundServer!
    private var sink: LockedLines!

    override func setUpWithError() throws {
        try start()
    }

    override func tearDown() {
        server?.stop()
    }

    private func start(graceSeconds: Double = 5) throws {
        let sink = LockedLines()
        self.sink = sink
        server = try BackgroundServer.start(configuration: ServerConfiguration(shutdownGraceSeconds: graceSeconds)) {
            let set = try StubLoader.parse(bytes: Array(Self.stubs.utf8), file: "truth.json", root: nil)
            return UnderstudyResponder(stubs: set, configuration: EngineConfiguration(journalSink: sink))
        }
    }

    func testFaultsAreJournaledAsFaultsWithoutAStatusUnlessTheHeadWasSent() throws {
        for (index, fault) in ["connection-reset", "empty-response", "malformed-response", "close-after-headers"]
            .enumerated()
        {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /fault/\(fault) HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = connection.readsEndOfStream()  // whatever the fault sends, the connection ends
            XCTAssertEqual(sink.objects.count, index + 1, "journaled before the fault reached the client")
        }
        let entries = sink.objects
        XCTAssertEqual(
            entries.map { $0["fault"] as? String },
            ["connection-reset", "empty-response", "malformed-response", "close-after-headers"])
        XCTAssertTrue(entries.allSatisfy { $0["outcome"] as? String == "fault" })
        for entry in entries.prefix(3) {
            XCTAssertTrue(entry["status"] is NSNull, "no status line was sent: \(entry)")
            XCTAssertTrue(entry["response"] is NSNull, "\(entry)")
        }
        XCTAssertEqual(entries[3]["status"] as? Int, 202, "close-after-headers sends its status line")
        let head = try XCTUnwrap(entries[3]["response"] as? [String: Any])
        XCTAssertEqual(head["status"] as? Int, 202)
        XCTAssertEqual(head["bodySize"] as? Int, 0)
        XCTAssertEqual((head["headers"] as? [String: [String]])?["x-h"], ["h"])
        XCTAssertEqual((head["headers"] as? [String: [String]])?["content-length"], ["3"])
    }

    func testTheJournaledResponseIsWhatTheClientReceived() throws {
        let connection = try RawConnection(port: server.port)
        connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        let received = try XCTUnwrap(connection.readResponse())
        let entry = try XCTUnwrap(sink.objects.first, "journaled before the client had its answer")
        let response = try XCTUnwrap(entry["response"] as? [String: Any])
        XCTAssertEqual(entry["status"] as? Int, 201)
        XCTAssertEqual(response["status"] as? Int, received.status)
        let headers = try XCTUnwrap(response["headers"] as? [String: [String]])
        XCTAssertEqual(headers["x-two"], ["a", "b"])
        // Every header the client saw, including the Date and Content-Length the server adds.
        for (name, value) in received.headers where name != "x-two" {
            XCTAssertEqual(headers[name], [value], name)
        }
        XCTAssertEqual(Set(headers.keys), Set(received.headers.keys))
        XCTAssertEqual(response["body"] as? String, received.body)
        XCTAssertEqual(response["bodySize"] as? Int, received.body.utf8.count)
        XCTAssertEqual(response["truncated"] as? Bool, false)
        XCTAssertEqual(entry["outcome"] as? String, "answered")
    }

    func testAClientThatLeavesADelayedAnswerIsJournaledAsGoneAndStopIsPrompt() throws {
        do {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertTrue(waitUntil { (try? self.health()["pending"] as? Int) == 1 }, "the request is waiting")
        }  // the client hangs up here, 19+ seconds before its answer
        XCTAssertTrue(waitUntil { self.sink.objects.count == 1 }, "the hang-up is noticed during the delay")
        let entry = try XCTUnwrap(sink.objects.first)
        XCTAssertEqual(entry["outcome"] as? String, "client-gone")
        XCTAssertTrue(entry["status"] is NSNull, "\(entry)")
        XCTAssertTrue(entry["response"] is NSNull)
        XCTAssertEqual(entry["delayMs"] as? Double, 20000)
        XCTAssertEqual(try health()["pending"] as? Int, 0)

        let started = Date()
        server.stop()
        // Before the fix the stop waited out the delay (up to the 5 s grace period).
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5, "no answer is left to wait for")
        XCTAssertEqual(sink.objects.count, 1, "journaled exactly once")
    }

    func testAnAnswerStillDueWhenTheGracePeriodEndsIsJournaledAsShutdown() throws {
        server.stop()
        try start(graceSeconds: 0.2)
        let connection = try RawConnection(port: server.port)
        connection.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(waitUntil { (try? self.health()["pending"] as? Int) == 1 })
        server.stop()
        XCTAssertTrue(connection.readsEndOfStream(), "the connection closes without an answer")
        let entries = sink.objects
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries.first?["outcome"] as? String, "shutdown")
        XCTAssertTrue(entries.first?["status"] is NSNull)
    }

    func testPipelinedRequestsBehindADelayedAnswerAreAnsweredInOrder() throws {
        // Bytes of the next request are not a hang-up: the watch steps aside and both answers come.
        server.stop()
        let sink = LockedLines()
        self.sink = sink
        server = try BackgroundServer.start {
            let set = try StubLoader.parse(
                bytes: Array(
                    #"{"stubs":[{"request":{"path":"/d"},"responses":[{"body":"d","delayMs":200}]},{"request":{"path":"/n"},"responses":[{"body":"n"}]}]}"#
                        .utf8),
                file: "p.json", root: nil)
            return UnderstudyResponder(stubs: set, configuration: EngineConfiguration(journalSink: sink))
        }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /d HTTP/1.1\r\nHost: x\r\n\r\nGET /n HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.body, "d")
        XCTAssertEqual(connection.readResponse()?.body, "n")
        XCTAssertEqual(sink.objects.map { $0["outcome"] as? String }, ["answered", "answered"])
    }

    private func health() throws -> [String: Any] {
        let result = try curl(["http://127.0.0.1:\(server.port)/__admin/health"])
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }
}

/// Journal lines written by a server thread, read by the test.
final class LockedLines: JournalSink, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [[UInt8]] = []

    func write(line: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        lines.append(line)
    }

    /// The lines as text, without their newlines.
    var texts: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines.map { String(decoding: $0.dropLast(), as: UTF8.self) }
    }

    var objects: [[String: Any]] {
        lock.lock()
        let copy = lines
        lock.unlock()
        return copy.map { (try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]) ?? [:] }
    }
}
