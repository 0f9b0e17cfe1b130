import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

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
        XCTAssertEqual(
            entries.map { $0["path"] as? String }, ["/ok", "/slow"], "seq follows the order answers went out")
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
        let record = JournalRecord(
            request: HTTPRequest(method: "GET", target: "/"), matched: false, rateLimited: false, stubID: nil,
            responseIndex: nil, scenario: nil)
        // "abcé" is 5 bytes: a, b, c, 0xC3 0xA9. A 4-byte cut would split é; the entry keeps "abc".
        engine.recorder.record(record, .answered(status: 200, headers: [:], body: Array("abcé".utf8)))
        engine.recorder.record(record, .answered(status: 200, headers: [:], body: Array("abcd".utf8)))
        engine.recorder.record(
            record, .answered(status: 200, headers: [:], body: [0xFF, 0x00, 0x01, 0x02, 0x03, 0x04]))
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
        let responder = UnderstudyResponder(
            stubs: try StubLoader.parse(bytes: Array(stubs.utf8), file: "t.json", root: nil))
        let (admin, adminTicket) = responder.answerAwaitingDelivery(
            HTTPRequest(method: "GET", target: "/__admin/health"))
        guard case .now(let health) = admin else { return XCTFail("health answers now") }
        XCTAssertEqual(health.status, 200)
        XCTAssertNil(adminTicket)
        let (_, ticket) = responder.answerAwaitingDelivery(HTTPRequest(method: "GET", target: "/ok"))
        XCTAssertNotNil(ticket)
        XCTAssertTrue(responder.engine.journalEntries.isEmpty)
        ticket?.commit(.shutdown)
        XCTAssertEqual(responder.engine.journalObjects.first?["outcome"] as? String, "shutdown")
    }
}

/// The journal's JSON string writer, which works eight bytes at a time, against a byte-by-byte
/// reference on every alignment of every kind of byte.
final class JournalLineBufferTests: XCTestCase {
    private func reference(_ bytes: [UInt8], lowercasing: Bool) -> String {
        var text = "\""
        for byte in bytes {
            switch byte {
            case 0x22: text += "\\\""
            case 0x5C: text += "\\\\"
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            case 0..<0x20, 0x7F: text += String(format: "\\u%04x", byte)
            default:
                let lowered = lowercasing && (65...90).contains(byte) ? byte + 32 : byte
                text.unicodeScalars.append(Unicode.Scalar(lowered))  // one scalar per byte: compared as bytes below
            }
        }
        return text + "\""
    }

    private func encoded(_ bytes: [UInt8], lowercasing: Bool) -> String {
        let buffer = JSONWriter(capacity: 64)
        bytes.withUnsafeBufferPointer { buffer.appendJSONString(utf8: $0, lowercasingASCII: lowercasing) }
        return buffer.bytes.map { String(Unicode.Scalar($0)) }.joined()
    }

    func testEveryByteAtEveryAlignmentMatchesTheByteByByteReference() {
        let specials: [UInt8] = [
            0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x22, 0x40, 0x41, 0x5A, 0x5B, 0x5C, 0x60, 0x61,
            0x7A, 0x7E, 0x7F, 0x80, 0xC3, 0xA9, 0xFF,
        ]
        for lowercasing in [false, true] {
            for length in Array(0...17) + [33] {  // every tail length (1-7 bytes), with and without a whole word before
                for position in 0..<max(1, length) {
                    for special in specials {
                        var bytes = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) - ($0 % 3 == 0 ? 32 : 0) }
                        if length > 0 { bytes[position] = special }
                        XCTAssertEqual(
                            encoded(bytes, lowercasing: lowercasing), reference(bytes, lowercasing: lowercasing),
                            "length \(length), byte \(special) at \(position), lowercasing \(lowercasing)")
                    }
                }
            }
        }
    }
}
