import Foundation
import UnderstudyCore
import UnderstudyServer
import XCTest

/// The transport learns what else a responder needs from what it announces (`transportHooks`),
/// not by casting it to `UnderstudyResponder`: a responder of an embedder's own that wraps the
/// daemon's (to log, say) keeps `{{server.url}}`, sessions and journal batching by passing the
/// hooks on. Before issue 40 the transport cast, so a wrapper silently lost all three.
final class TransportHooksTests: XCTestCase {
    /// An embedder's responder: answers through the daemon's, and announces the daemon's hooks.
    private final class WrappingResponder: HTTPResponder {
        let inner: UnderstudyResponder

        init(_ inner: UnderstudyResponder) {
            self.inner = inner
        }

        func respond(to request: HTTPRequest) -> HTTPResponse {
            inner.respond(to: request)
        }

        func answerAwaitingDelivery(_ request: HTTPRequest) -> (answer: HTTPAnswer, journal: JournalTicket?) {
            inner.answerAwaitingDelivery(request)
        }

        func reject(_ request: HTTPRequest, status: Int, reason: String) -> HTTPResponse {
            inner.reject(request, status: status, reason: reason)
        }

        func rejectAwaitingDelivery(_ request: HTTPRequest, status: Int, reason: String) -> (
            response: HTTPResponse, journal: JournalTicket?
        ) {
            inner.rejectAwaitingDelivery(request, status: status, reason: reason)
        }

        var transportHooks: TransportHooks { inner.transportHooks }
    }

    /// A journal sink that counts the batches the transport opens around its writes.
    private final class CountingSink: JournalSink, JournalBatching, @unchecked Sendable {
        private let lock = NSLock()
        private var counts = (lines: 0, batches: 0)

        func write(line: [UInt8]) {
            lock.withLock { counts.lines += 1 }
        }

        func beginJournalBatch() {
            lock.withLock { counts.batches += 1 }
        }

        func endJournalBatch() {}

        var snapshot: (lines: Int, batches: Int) { lock.withLock { counts } }
    }

    private var server: BackgroundServer!
    private let sink = CountingSink()

    override func setUpWithError() throws {
        let stubs = #"""
            {"stubs": [{"id": "who", "request": {"path": "/who"},
                        "responses": [{"status": 200, "body": "{{server.url}}", "template": true}]}]}
            """#
        let sink = self.sink
        server = try BackgroundServer.start {
            let set = try StubLoader.parse(bytes: Array(stubs.utf8), file: "test.json", root: nil)
            let responder = UnderstudyResponder(stubs: set, configuration: EngineConfiguration(journalSink: sink))
            responder.enableSessions(SessionLimits(maxSessions: 5, idleTimeoutSeconds: nil))
            return WrappingResponder(responder)
        }
    }

    override func tearDown() {
        server?.stop()
    }

    private func call(_ port: Int, _ method: String, _ target: String, host: String = "x") throws -> (
        status: Int, body: String
    ) {
        let connection = try RawConnection(port: port)
        connection.send("\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nContent-Length: 0\r\n\r\n")
        let response = try XCTUnwrap(connection.readResponse(), "\(method) \(target) on \(port)")
        return (response.status, response.body)
    }

    func testAWrappedResponderIsToldTheURLItIsServedOn() throws {
        // Without the transport's URL the template falls back to the Host header, which names
        // somewhere else here.
        let answer = try call(server.port, "GET", "/who", host: "elsewhere.test:1")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.body, server.url)
    }

    func testAWrappedResponderHostsSessionsOnTheTransport() throws {
        let created = try call(server.port, "POST", "/__admin/sessions")
        XCTAssertEqual(created.status, 201, created.body)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any])
        let port = try XCTUnwrap(object["port"] as? Int)
        XCTAssertNotEqual(port, server.port)
        XCTAssertEqual(try call(port, "GET", "/who").status, 200, "the session's own port answers")
    }

    func testAWrappedResponderGetsItsJournalWritesBatched() throws {
        XCTAssertEqual(try call(server.port, "GET", "/who").status, 200)
        // The line was written before the answer was sent; the batch around it opened first.
        let counts = sink.snapshot
        XCTAssertEqual(counts.lines, 1)
        XCTAssertGreaterThanOrEqual(counts.batches, 1, "the transport opened a journal batch for the request")
    }
}
