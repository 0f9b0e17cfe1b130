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
        Self.feed(bytes, cuts: Array(stride(from: step, to: bytes.count, by: step)), to: &parser) { events.append($0) }
        return events
    }

    /// Feeds `bytes` to `parser` cut at `cuts` (ascending offsets) and calls `found` with each event;
    /// stops once the reader needs nothing more (or, which fails the test, takes nothing).
    static func feed(_ bytes: [UInt8], cuts: [Int], to parser: inout RequestStreamParser,
                     _ found: (RequestStreamParser.Event) -> Void) {
        let bounds = [0] + cuts + [bytes.count]
        pieces: for (start, end) in zip(bounds, bounds.dropFirst()) {
            var position = start
            while position < end {
                switch parser.need {
                case .nothing:
                    break pieces
                case .skip(let count):
                    let taken = min(count, end - position)
                    parser.skip(taken)
                    position += taken
                case .inspect:
                    let (used, event) = bytes[position..<end].withUnsafeBytes { parser.inspect($0) }
                    XCTAssert(used > 0 || event != nil, "the reader took nothing at \(position)")
                    if used == 0 && event == nil { break pieces }
                    if let event { found(event) }
                    position += used
                }
            }
        }
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

    /// Feeds `bytes` cut at `cuts` (ascending offsets) and describes, in full, every event and
    /// what the reader needs once all pieces are in.
    static func trace(_ bytes: [UInt8], cuts: [Int], maxBody: Int = 100, maxHead: Int = 120,
                      reporting: RequestStreamParser.Reporting = .everyHead) -> [String] {
        var parser = RequestStreamParser(maxBodyBytes: maxBody, maxHeadBytes: maxHead, reporting: reporting)
        var trace: [String] = []
        feed(bytes, cuts: cuts, to: &parser) { trace.append(describe($0)) }
        return trace + ["need \(parser.need)"]
    }

    static func describe(_ event: RequestStreamParser.Event) -> String {
        func text(_ head: RequestHead) -> String {
            let fields = head.headers.fields.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
            return "\(head.method) \(head.target) [\(fields)] length \(head.declaredLength.map(String.init) ?? "-") chunked \(head.chunked)"
        }
        switch event {
        case .head(let head): return "head " + text(head)
        case .refused(let head, let reason): return "refused " + text(head) + " (\(reason))"
        }
    }

    /// Streams that exercise every rule of the reader: chunked bodies (text after a size, trailers, the
    /// limit), declared lengths, methods without bodies, unknown methods, folded lines, bare LF
    /// line ends, stray CRs, non-ASCII targets and heads around the header limit (120 bytes here).
    static let framingStreams: [String] = [
        "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3 ;ext=1\r\nabc\r\n10 \r\n0123456789abcdef\r\n0\r\nX-T: 1\r\n\r\nGET /n HTTP/1.1\r\n\r\n",
        "PATCH /c HTTP/1.1\r\ntransfer-encoding: CHUNKED\r\nContent-Length: 7\r\n\r\n40\r\n" + String(repeating: "x", count: 64) + "\r\n40\r\n",
        "POST /c HTTP/1.1\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\nokHEAD / HTTP/1.1\r\n\r\n",
        "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "PUT /a?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length:  5 \r\ncontent-length: 9\r\n\r\nhelloDELETE /b HTTP/1.1\r\n\r\n",
        "PURGE /cache HTTP/1.1\r\nContent-Length: 2\r\nX-A:  1 \r\n\r\nokPROPFIND /d HTTP/1.0\r\n\r\n",
        "MKCOL /m HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "GET /f HTTP/1.1\r\nX-Long: one\r\n  two\r\n\tthree\r\nContent-Length: 3\r\n\r\nabcTRACE /t HTTP/1.1\r\nContent-Length: 4\r\n\r\n",
        "GET /lf HTTP/1.1\nHost: x\nContent-Length: 1\n\nzOPTIONS * HTTP/1.1\r\nA: b\r\r\n\r\n",
        "GET /caf\u{E9}?q=\u{2603} HTTP/1.1\r\nX-\u{E9}: \u{E9}\r\n\r\nCONNECT h:1 HTTP/1.1\r\n\r\n",
        "POST /big HTTP/1.1\r\nContent-Length: 101\r\n\r\n",
        "POST /ok HTTP/1.1\r\nContent-Length: 100\r\n\r\n" + String(repeating: "b", count: 100) + "GET /after HTTP/1.1\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\nGET / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nNoColon\r\n\r\n",
        "GET /two  spaces HTTP/1.1\r\n\r\n",
        "\r\nGET / HTTP/1.1\r\n\r\n",
        // 118 bytes of head (line ends excepted) pass the 120-byte limit; 123 do not.
        "GET /limit HTTP/1.1\r\nX-Pad: " + String(repeating: "p", count: 89) + "\r\n\r\nGET /next HTTP/1.1\r\n\r\n",
        "GET /limit HTTP/1.1\r\nX-Pad: " + String(repeating: "p", count: 94) + "\r\n\r\nGET /next HTTP/1.1\r\n\r\n",
        "GET /" + String(repeating: "l", count: 130) + " HTTP/1.1\r\n\r\n",
        // A request line that will be refused once it ends, but has not ended yet.
        "GET /a HTTP/1.1\r\n\r\nGET /b c d",
        "HEAD /h\r\n\r\n",
        "GET /v HTTP/1.0\nHost: x\n\nGET /w HTTP/1.1x\r\n\r\nPOST /x HTTP/1.1\r\r\n\r\nGET /y HTTP/1.1 \r\n\r\n",
    ]

    func testSplittingAStreamAnywhereGivesTheSameEventsAsFeedingItWhole() {
        for stream in Self.framingStreams {
            let bytes = Array(stream.utf8)
            for reporting in [RequestStreamParser.Reporting.everyHead, .unknownMethods] {
                let whole = Self.trace(bytes, cuts: [], reporting: reporting)
                for cut in 1..<bytes.count {
                    XCTAssertEqual(Self.trace(bytes, cuts: [cut], reporting: reporting), whole, "\(stream.debugDescription) cut at \(cut)")
                }
                XCTAssertEqual(Self.trace(bytes, cuts: Array(1..<bytes.count), reporting: reporting), whole,
                               "\(stream.debugDescription) a byte at a time")
            }
        }
    }

    func testTheFramingStreamsGiveTheEventsLibeventWould() {
        let traces = Self.framingStreams.map { Self.trace(Array($0.utf8), cuts: []) }
        XCTAssertEqual(traces[0], ["head POST /c [Transfer-Encoding=chunked] length - chunked true", "head GET /n [] length - chunked false", "need inspect"])
        XCTAssertEqual(traces[1], ["head PATCH /c [transfer-encoding=CHUNKED|Content-Length=7] length - chunked true",
                                   "refused PATCH /c [transfer-encoding=CHUNKED|Content-Length=7] length - chunked true (request body exceeds the 100-byte limit)",
                                   "need nothing"])
        XCTAssertEqual(traces[2], ["head POST /c [Transfer-Encoding=gzip|Transfer-Encoding=chunked|Content-Length=2] length 2 chunked false",
                                   "head HEAD / [] length - chunked false", "need inspect"])
        XCTAssertEqual(traces[3], ["head POST /c [Transfer-Encoding=chunked] length - chunked true",
                                   "refused POST /c [Transfer-Encoding=chunked] length - chunked true (malformed chunked request body)", "need nothing"])
        XCTAssertEqual(traces[4], ["head PUT /a?x=1 [Host=x|Content-Length=5|content-length=9] length 5 chunked false", "head DELETE /b [] length - chunked false", "need inspect"])
        XCTAssertEqual(traces[5], ["head PURGE /cache [Content-Length=2|X-A=1] length 2 chunked false", "head PROPFIND /d [] length - chunked false", "need inspect"])
        XCTAssertEqual(traces[6], ["head MKCOL /m [Transfer-Encoding=chunked] length - chunked true", "need nothing"])
        XCTAssertEqual(traces[7], ["head GET /f [X-Long=one|Content-Length=3] length 3 chunked false", "head TRACE /t [Content-Length=4] length 4 chunked false", "need inspect"])
        XCTAssertEqual(traces[8], ["head GET /lf [Host=x|Content-Length=1] length 1 chunked false", "head OPTIONS * [A=b\r] length - chunked false", "need inspect"])
        XCTAssertEqual(traces[9], ["head GET /caf\u{E9}?q=\u{2603} [X-\u{E9}=\u{E9}] length - chunked false", "head CONNECT h:1 [] length - chunked false", "need inspect"])
        XCTAssertEqual(traces[10], ["refused POST /big [Content-Length=101] length 101 chunked false (request body of 101 bytes exceeds the 100-byte limit)", "need nothing"])
        XCTAssertEqual(traces[11], ["head POST /ok [Content-Length=100] length 100 chunked false", "head GET /after [] length - chunked false", "need inspect"])
        for malformed in 12...15 { XCTAssertEqual(traces[malformed], ["need nothing"], Self.framingStreams[malformed].debugDescription) }
        XCTAssertEqual(traces[16], ["head GET /limit [X-Pad=\(String(repeating: "p", count: 89))] length - chunked false", "head GET /next [] length - chunked false", "need inspect"])
        XCTAssertEqual(traces[17], ["need nothing"])
        XCTAssertEqual(traces[18], ["need nothing"])
        XCTAssertEqual(traces[19], ["head GET /a [] length - chunked false", "need inspect"])
        XCTAssertEqual(traces[20], ["need nothing"])
        XCTAssertEqual(traces[21], ["head GET /v [Host=x] length - chunked false", "head GET /w [] length - chunked false",
                                    "head POST /x [] length - chunked false", "need nothing"])
    }

    func testAbsoluteFormTargetsBecomeOriginForm() {
        XCTAssertEqual(RequestHead.originForm("http://example.com/a/b?c=1"), "/a/b?c=1")
        XCTAssertEqual(RequestHead.originForm("http://example.com"), "/")
        XCTAssertEqual(RequestHead.originForm("http://example.com?q"), "/?q")
        XCTAssertEqual(RequestHead.originForm("/plain?x"), "/plain?x")
    }
}
