import Foundation
import XCTest
@testable import UnderstudyCore

/// The journal tells what was sent: entries wait for the transport's report (``JournalTicket``),
/// faults and departed clients carry no status, and each entry records the response.
final class JournalTruthTests: XCTestCase {
    private let stubs = #"""
        {"stubs":[
          {"id":"ok","request":{"path":"/ok"},"responses":[{"status":201,"headers":{"X-A":"1"},"body":"hello"}]},
          {"id":"slow","request":{"path":"/slow"},"responses":[{"status":200,"delayMs":250,"body":"late"}]},
          {"id":"reset","request":{"path":"/reset"},"responses":[{"status":500,"fault":"connection-reset"}]},
          {"id":"head","request":{"path":"/head"},"responses":[{"status":202,"headers":{"X-H":"h"},"fault":"close-after-headers","body":"abc"}]}
        ]}
        """#

    func testATicketIsJournaledOnlyWhenCommittedAndOnlyOnce() throws {
        let clock = ManualEngineClock()
        let sink = CollectingSink()
        let engine = try makeEngine(stubs, clock: clock, sink: sink)
        let (_, slowTicket) = engine.handle(HTTPRequest(method: "GET", target: "/slow"), awaitingDelivery: true)
        let ticket = try XCTUnwrap(slowTicket)
        XCTAssertTrue(engine.journalEntries.isEmpty, "nothing is journaled before the answer's fate is known")
        XCTAssertTrue(sink.lines.isEmpty)
        clock.advance(milliseconds: 100)
        let (_, okTicket) = engine.handle(HTTPRequest(method: "GET", target: "/ok"), awaitingDelivery: true)
        okTicket?.commit(.answered(status: 201, headers: ["X-A": "1"], body: Array("hello".utf8)))
        clock.advance(milliseconds: 150)
        ticket.commit(.answered(status: 200, headers: ["Content-Length": "4"], body: Array("late".utf8)))
        ticket.commit(.clientGone)
        XCTAssertTrue(ticket.isCommitted)
        XCTAssertEqual(sink.lines.count, 2, "a second commit is ignored")
        let entries = engine.journalObjects
        XCTAssertEqual(entries.map { $0["path"] as? String }, ["/ok", "/slow"], "seq follows the order answers went out")
        XCTAssertEqual(entries.map { $0["seq"] as? Int }, [1, 2])
        XCTAssertEqual(entries[1]["elapsedMs"] as? Double, 0, "elapsedMs is the arrival")
        XCTAssertEqual(entries[1]["outcomeMs"] as? Double, 250, "outcomeMs is when the answer went out")
        XCTAssertEqual(entries[1]["delayMs"] as? Double, 250)
        XCTAssertEqual(entries[1]["outcome"] as? String, "answered")
        XCTAssertEqual(entries[1]["status"] as? Int, 200)
    }

    func testAClientThatLeftHasNoStatusAndNoResponse() throws {
        let engine = try makeEngine(stubs)
        let (response, ticket) = engine.handle(HTTPRequest(method: "GET", target: "/slow"), awaitingDelivery: true)
        XCTAssertEqual(response.status, 200, "the stub still decides what would have been sent")
        ticket?.commit(.clientGone)
        let entry = try XCTUnwrap(engine.journalObjects.first)
        XCTAssertTrue(entry["status"] is NSNull, "\(entry)")
        XCTAssertTrue(entry["response"] is NSNull)
        XCTAssertTrue(entry["fault"] is NSNull)
        XCTAssertEqual(entry["outcome"] as? String, "client-gone")
        XCTAssertEqual(entry["stub"] as? String, "slow")
        XCTAssertEqual(engine.journalEntries.first?.status, nil)
        XCTAssertEqual(engine.journalEntries.first?.outcome, .clientGone)
    }

    func testAFaultIsAFaultWithNoStatusUnlessTheHeadWasSent() throws {
        let engine = try makeEngine(stubs)
        _ = engine.get("/reset")
        _ = engine.get("/head")
        let entries = engine.journalObjects
        XCTAssertTrue(entries[0]["status"] is NSNull, "connection-reset sends no status line: \(entries[0])")
        XCTAssertEqual(entries[0]["fault"] as? String, "connection-reset")
        XCTAssertEqual(entries[0]["outcome"] as? String, "fault")
        XCTAssertTrue(entries[0]["response"] is NSNull)
        XCTAssertEqual(entries[1]["status"] as? Int, 202, "close-after-headers did send its status line")
        XCTAssertEqual(entries[1]["fault"] as? String, "close-after-headers")
        let response = try XCTUnwrap(entries[1]["response"] as? [String: Any])
        XCTAssertEqual(response["status"] as? Int, 202)
        XCTAssertEqual(response["bodySize"] as? Int, 0, "no byte of the body was sent")
        XCTAssertEqual((response["headers"] as? [String: [String]])?["x-h"], ["h"])
    }

    func testTheResponseIsRecordedWithItsHeadersAndBody() throws {
        let engine = try makeEngine(stubs)
        _ = engine.get("/ok")
        let entry = try XCTUnwrap(engine.journalObjects.first)
        let response = try XCTUnwrap(entry["response"] as? [String: Any])
        XCTAssertEqual(response["status"] as? Int, 201)
        XCTAssertEqual(response["headers"] as? [String: [String]], ["x-a": ["1"]])
        XCTAssertEqual(response["bodySize"] as? Int, 5)
        XCTAssertEqual(response["body"] as? String, "hello")
        XCTAssertEqual(response["truncated"] as? Bool, false)
        XCTAssertEqual(entry["delayMs"] as? Double, 0)
    }

    func testBodiesAreCutAtTheLimitOnACharacterBoundary() throws {
        let engine = try makeEngine(#"{"stubs":[]}"#, journalBodyLimit: 4)
        let record = JournalRecord(request: HTTPRequest(method: "GET", target: "/"), matched: false, stubID: nil,
                                   responseIndex: nil, scenario: nil, rateLimited: false)
        // "abcé" is 5 bytes: a, b, c, 0xC3 0xA9. A 4-byte cut would split é; the entry keeps "abc".
        engine.record(record, .answered(status: 200, headers: [:], body: Array("abcé".utf8)))
        engine.record(record, .answered(status: 200, headers: [:], body: Array("abcd".utf8)))
        engine.record(record, .answered(status: 200, headers: [:], body: [0xFF, 0x00, 0x01, 0x02, 0x03, 0x04]))
        let responses = engine.journalObjects.map { $0["response"] as? [String: Any] ?? [:] }
        XCTAssertEqual(responses[0]["body"] as? String, "abc")
        XCTAssertEqual(responses[0]["bodySize"] as? Int, 5)
        XCTAssertEqual(responses[0]["truncated"] as? Bool, true)
        XCTAssertEqual(responses[1]["body"] as? String, "abcd", "exactly the limit is not truncated")
        XCTAssertEqual(responses[1]["truncated"] as? Bool, false)
        XCTAssertEqual(responses[2]["bodyBase64"] as? String, Data([0xFF, 0x00, 0x01, 0x02]).base64EncodedString())
        XCTAssertNil(responses[2]["body"])
        XCTAssertEqual(responses[2]["truncated"] as? Bool, true)

        let none = try makeEngine(#"{"stubs":[{"responses":[{"body":"secret"}]}]}"#, journalBodyLimit: 0)
        _ = none.get("/x")
        let response = try XCTUnwrap(none.journalObjects.first?["response"] as? [String: Any])
        XCTAssertEqual(response["body"] as? String, "")
        XCTAssertEqual(response["bodySize"] as? Int, 6)
        XCTAssertEqual(response["truncated"] as? Bool, true)
    }

    func testAdminRequestsGetNoTicket() throws {
        let responder = UnderstudyResponder(stubs: try StubLoader.parse(bytes: Array(stubs.utf8), file: "t.json", root: nil))
        let (admin, adminTicket) = responder.respondAwaitingDelivery(to: HTTPRequest(method: "GET", target: "/__admin/health"))
        XCTAssertEqual(admin.status, 200)
        XCTAssertNil(adminTicket)
        let (_, ticket) = responder.respondAwaitingDelivery(to: HTTPRequest(method: "GET", target: "/ok"))
        XCTAssertNotNil(ticket)
        XCTAssertTrue(responder.engine.journalEntries.isEmpty)
        ticket?.commit(.shutdown)
        XCTAssertEqual(responder.engine.journalObjects.first?["outcome"] as? String, "shutdown")
    }
}
