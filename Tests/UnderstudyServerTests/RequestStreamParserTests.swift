@testable import UnderstudyServer
import XCTest

/// The raw-stream reader that keeps method names and refused requests evhttp would drop.
final class RequestStreamParserTests: XCTestCase {
    /// Feeds `text` in pieces of `step` bytes, as the network might deliver it.
    private func feed(_ text: String, step: Int, maxBody: Int = 100,
                      reporting: RequestStreamParser.Reporting = .everyHead) -> [RequestStreamParser.Event] {
        var parser = RequestStreamParser(maxBodyBytes: maxBody, maxHeadBytes: 1000, reporting: reporting)
        let bytes = Array(text.utf8)
        var events: [RequestStreamParser.Event] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + step)
            var position = offset
            while position < end {
                switch parser.need {
                case .nothing:
                    return events
                case .skip(let count):
                    let taken = min(count, end - position)
                    parser.skip(taken)
                    position += taken
                case .inspect:
                    let (used, found) = bytes[position..<end].withUnsafeBytes { parser.inspect($0) }
                    events += found
                    position += used
                }
            }
            offset = end
        }
        return events
    }

    private func summary(_ events: [RequestStreamParser.Event]) -> [String] {
        events.map {
            switch $0 {
            case .head(let head): return "\(head.method) \(head.target)"
            case .refused(let head, _): return "refused \(head.method) \(head.target)"
            }
        }
    }

    func testPipelinedRequestsWithBodiesInAnyPieces() {
        let stream = "PURGE /cache HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /a?x=1 HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"
            + "PATCH /b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
            + "GET /c HTTP/1.1\nHost: x\n\n"
        for step in [1, 2, 7, 1000] {
            XCTAssertEqual(summary(feed(stream, step: step)), ["PURGE /cache", "POST /a?x=1", "PATCH /b", "GET /c"], "step \(step)")
        }
    }

    func testTheServersModeReportsOnlyUnknownMethodsButFramesAndRefusesEverything() throws {
        let stream = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /b HTTP/1.1\r\ncontent-length: 5\r\n\r\nPURGE"
            + "PATCH /c HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
            + "HEAD /d HTTP/1.1\r\nContent-Length: 3\r\n\r\n"
            + "PURGE /e?x HTTP/1.1\r\nContent-Length: 2\r\nX-A:  1 \r\n\r\nok"
            + "PUT /big HTTP/1.1\r\nContent-Length: 101\r\n\r\n"
        for step in [1, 3, 1000] {
            let events = feed(stream, step: step, reporting: .unknownMethods)
            XCTAssertEqual(summary(events), ["PURGE /e?x", "refused PUT /big"], "step \(step)")
            guard case .head(let head)? = events.first else { return XCTFail("step \(step)") }
            XCTAssertEqual(head.declaredLength, 2)
            XCTAssertEqual(head.headers["x-a"], "1")
        }
        let chunked = "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n" + String(repeating: "x", count: 64) + "\r\n40\r\n"
        XCTAssertEqual(summary(feed(chunked, step: 9, reporting: .unknownMethods)), ["refused POST /c"])
    }

    func testHeadersKeepOrderAndRepeats() throws {
        let events = feed("GET / HTTP/1.1\r\nA: 1\r\nB:  two \r\nA: 3\r\n\r\n", step: 3)
        guard case .head(let head) = try XCTUnwrap(events.first) else { return XCTFail() }
        XCTAssertEqual(head.headers.fields.map(\.name), ["A", "B", "A"])
        XCTAssertEqual(head.headers.values(for: "a"), ["1", "3"])
        XCTAssertEqual(head.headers["B"], "two")
    }

    func testBodiesOverTheLimitAreRefusedWhetherDeclaredOrChunked() {
        XCTAssertEqual(summary(feed("POST /big HTTP/1.1\r\nContent-Length: 101\r\n\r\n", step: 5)), ["refused POST /big"])
        let chunked = "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n" + String(repeating: "x", count: 64) + "\r\n40\r\n"
        XCTAssertEqual(summary(feed(chunked, step: 9)), ["POST /c", "refused POST /c"])
        XCTAssertEqual(summary(feed("POST /ok HTTP/1.1\r\nContent-Length: 100\r\n\r\n", step: 5)), ["POST /ok"])
    }

    func testHeadAndTraceCarryNoBodyAsInLibevent() {
        let stream = "HEAD /h HTTP/1.1\r\nContent-Length: 3\r\n\r\nGET /next HTTP/1.1\r\n\r\n"
        XCTAssertEqual(summary(feed(stream, step: 4)), ["HEAD /h", "GET /next"])
    }

    func testMalformedStreamsStopTheReader() {
        XCTAssertEqual(summary(feed("NOT-HTTP\r\n\r\nGET / HTTP/1.1\r\n\r\n", step: 4)), [])
        XCTAssertEqual(summary(feed("POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\nGET / HTTP/1.1\r\n\r\n", step: 4)), [])
    }

    func testAbsoluteFormTargetsBecomeOriginForm() {
        XCTAssertEqual(RequestHead.originForm("http://example.com/a/b?c=1"), "/a/b?c=1")
        XCTAssertEqual(RequestHead.originForm("http://example.com"), "/")
        XCTAssertEqual(RequestHead.originForm("http://example.com?q"), "/?q")
        XCTAssertEqual(RequestHead.originForm("/plain?x"), "/plain?x")
    }
}
