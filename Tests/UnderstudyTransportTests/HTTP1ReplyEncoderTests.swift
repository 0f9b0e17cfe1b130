import UnderstudyCore
import XCTest

@testable import UnderstudyServer

/// The codec's reply side, byte for byte, with no bufferevent: the head a response gets for the
/// request being answered (its method, version and keep-alive), and the fields handed to the
/// journal being exactly the ones written.
final class HTTP1ReplyEncoderTests: XCTestCase {
    private let date = "Sun, 06 Nov 1994 08:49:37 GMT"

    /// The codec after reading `request` (so its exchange is that request's).
    private func codec(after request: String) -> HTTP1Codec {
        var codec = HTTP1Codec(
            limits: RequestHeadParser.Limits(maxRequestLine: 8192, maxFieldBytes: 8192, maxFields: 100),
            maxBodyBytes: 1 << 20, secure: false)
        var input = ChunkedInput()
        input.append(Array(request.utf8))
        guard case .request? = codec.nextRequest(from: &input) else {
            XCTFail("not a request: \(request)")
            return codec
        }
        return codec
    }

    private struct Written {
        var text: String
        var chunked: Bool
        var closing: Bool
        var recordedStatus: Int
        var recordedReason: String?
        var recordedFields: [String]
        var recordedBody: String
    }

    private func write(
        _ response: HTTPResponse, after request: String = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n",
        framing: HTTP1Codec.BodyFraming = .content, closeAfter: Bool = false, draining: Bool = false
    ) -> Written {
        var codec = codec(after: request)
        var output = ArrayOutput()
        var dateHeader = DateHeader()
        var recorded = Capture()
        let written = codec.writeHead(
            response, framing: framing, closeAfter: closeAfter, draining: draining, date: &dateHeader, into: &output,
            recorder: &recorded)
        return Written(
            text: output.text, chunked: written?.chunked ?? false, closing: written?.closing ?? false,
            recordedStatus: recorded.status, recordedReason: recorded.reason, recordedFields: recorded.fields,
            recordedBody: recorded.body)
    }

    private func response(_ status: Int, _ body: String = "", headers: [(String, String)] = [], reason: String? = nil)
        -> HTTPResponse
    {
        var fields = HTTPHeaders()
        fields.append(name: "Date", value: date)
        for (name, value) in headers { fields.append(name: name, value: value) }
        return HTTPResponse(status: status, headers: fields, body: Array(body.utf8), reason: reason)
    }

    func testAKeptAliveReplyWithABody() {
        let written = write(response(200, "ok", headers: [("Content-Type", "text/plain")]))
        XCTAssertEqual(
            written.text, "HTTP/1.1 200 OK\r\nDate: \(date)\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")
        XCTAssertFalse(written.closing)
        XCTAssertEqual(written.recordedStatus, 200)
        XCTAssertEqual(written.recordedFields, ["Date: \(date)", "Content-Type: text/plain", "Content-Length: 2"])
        XCTAssertEqual(written.recordedBody, "ok")
    }

    func testADateIsAddedWhenTheResponseHasNone() {
        let written = write(HTTPResponse(status: 204))
        XCTAssertTrue(written.text.hasPrefix("HTTP/1.1 204 No Content\r\nDate: "), written.text)
        XCTAssertTrue(written.text.hasSuffix(" GMT\r\n\r\n"), written.text)
        XCTAssertEqual(written.recordedFields.count, 1)
    }

    func testHEADAnd204And304CarryNoBodyAndNoLength() {
        XCTAssertEqual(
            write(response(200, "hello"), after: "HEAD /a HTTP/1.1\r\nHost: x\r\n\r\n").text,
            "HTTP/1.1 200 OK\r\nDate: \(date)\r\n\r\n")
        XCTAssertEqual(write(response(204, "hello")).text, "HTTP/1.1 204 No Content\r\nDate: \(date)\r\n\r\n")
        XCTAssertEqual(write(response(304, "hello")).text, "HTTP/1.1 304 Not Modified\r\nDate: \(date)\r\n\r\n")
    }

    func testConnectionCloseWhenAskedDrainingOrByTheClient() {
        let close = "HTTP/1.1 200 OK\r\nDate: \(date)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        XCTAssertEqual(write(response(200), closeAfter: true).text, close)
        XCTAssertTrue(write(response(200), closeAfter: true).closing)
        XCTAssertEqual(write(response(200), draining: true).text, close)
        XCTAssertEqual(
            write(response(200), after: "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").text, close)
        // A stub's own `Connection: close` closes too, written once.
        XCTAssertEqual(write(response(200, headers: [("Connection", "close")])).text, close)
    }

    func testHTTP10KeepAliveIsAnnouncedAndPlainHTTP10Closes() {
        XCTAssertEqual(
            write(response(200, "ok"), after: "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").text,
            "HTTP/1.1 200 OK\r\nDate: \(date)\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok")
        let plain = write(response(200, "ok"), after: "GET /a HTTP/1.0\r\n\r\n")
        XCTAssertEqual(
            plain.text, "HTTP/1.1 200 OK\r\nDate: \(date)\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        XCTAssertTrue(plain.closing)
    }

    func testAStubAskingForChunksGetsOneChunk() {
        let written = write(response(200, "hello", headers: [("Transfer-Encoding", "chunked")]))
        XCTAssertEqual(
            written.text,
            "HTTP/1.1 200 OK\r\nDate: \(date)\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        XCTAssertTrue(written.chunked)
        XCTAssertEqual(written.recordedFields, ["Date: \(date)", "Transfer-Encoding: chunked"])
    }

    func testAStubsOwnReasonPhraseAndContentLength() {
        let written = write(response(201, "ok", headers: [("Content-Length", "2")], reason: "Made It"))
        XCTAssertEqual(written.text, "HTTP/1.1 201 Made It\r\nDate: \(date)\r\nContent-Length: 2\r\n\r\nok")
        XCTAssertEqual(written.recordedReason, "Made It")  // journaled; the standard phrase is implied
        XCTAssertNil(write(response(201, "ok")).recordedReason)
    }

    func testAPacedBodyInChunksThenItsLastChunk() {
        var codec = codec(after: "GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        var output = ArrayOutput()
        var dateHeader = DateHeader()
        var recorded = Capture()
        let written = codec.writeHead(
            response(200, "abcdef"), framing: .chunked, closeAfter: false, draining: false, date: &dateHeader,
            into: &output, recorder: &recorded)
        XCTAssertEqual(recorded.body, "")  // a paced body is journaled whole by its caller
        XCTAssertEqual(written?.chunked, true)
        HTTP1Codec.writePiece(Array("abc".utf8), chunked: true, into: &output)
        HTTP1Codec.writePiece(Array("defghijklmnopqrs".utf8), chunked: true, into: &output)
        HTTP1Codec.writeLastChunk(into: &output)
        XCTAssertEqual(
            output.text,
            "HTTP/1.1 200 OK\r\nDate: \(date)\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n10\r\ndefghijklmnopqrs\r\n0\r\n\r\n"
        )
    }

    func testAPacedBodyToAnHTTP10ClientEndsWithTheConnection() {
        var codec = codec(after: "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        var output = ArrayOutput()
        var dateHeader = DateHeader()
        var recorded = Capture()
        let written = codec.writeHead(
            response(200, "abc"), framing: .chunked, closeAfter: false, draining: false, date: &dateHeader,
            into: &output, recorder: &recorded)
        XCTAssertEqual(written?.chunked, false)
        XCTAssertEqual(written?.closing, true)
        XCTAssertEqual(output.text, "HTTP/1.1 200 OK\r\nDate: \(date)\r\nConnection: close\r\n\r\n")
    }

    func testAPacedBodyOfKnownLengthAnnouncesIt() {
        let written = write(response(200, "abcdef"), framing: .length(6))
        XCTAssertEqual(written.text, "HTTP/1.1 200 OK\r\nDate: \(date)\r\nContent-Length: 6\r\n\r\n")
        XCTAssertEqual(written.recordedBody, "")
    }

    func testALargeBodyFollowsTheHead() {
        let body = String(repeating: "x", count: HTTP1Codec.inlineBodyLimit + 1)
        let written = write(response(200, body))
        XCTAssertEqual(
            written.text, "HTTP/1.1 200 OK\r\nDate: \(date)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        XCTAssertEqual(written.recordedBody, body)
    }

    func testExpectContinueAsksForTheInterimResponseOnlyWhenTheBodyIsNotThereYet() {
        let head = "POST /a HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"
        let waiting = decode([Array(head.utf8), Array("hello".utf8)])
        XCTAssertEqual(waiting.continues, 1)
        XCTAssertEqual(waiting.requests.map { String(decoding: $0.body, as: UTF8.self) }, ["hello"])
        XCTAssertEqual(decode([Array((head + "hello").utf8)]).continues, 0)
        // HTTP/1.0 has no interim responses.
        let old = "POST /a HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"
        XCTAssertEqual(decode([Array(old.utf8), Array("hello".utf8)]).continues, 0)
    }

    func testABodyOverTheLimitIsRefusedWith413() {
        let decoded = decode(
            [Array("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n".utf8)], maxBodyBytes: 10)
        XCTAssertEqual(decoded.refusal?.status, 413)
        XCTAssertEqual(decoded.refused?.path, "/big")
    }

    func testRequestsOverTLSAreMarkedSecure() {
        XCTAssertEqual(
            decode([Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)], secure: true).requests.first?.isSecure, true)
        XCTAssertEqual(decode([Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)]).requests.first?.isSecure, false)
    }
}
