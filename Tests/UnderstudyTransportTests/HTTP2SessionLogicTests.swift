import UnderstudyCore
import XCTest

@testable import UnderstudyServer

/// The HTTP/2 session's own logic on values, with no socket and no nghttp2 session: recognising the
/// preface, building the engine's request from a stream's HEADERS and DATA, and the data provider's
/// view of an answer's body. (The frames themselves are nghttp2's; test_http2.py drives them.)
final class HTTP2SessionLogicTests: XCTestCase {
    private func preface(_ bytes: [UInt8]) -> Bool? {
        bytes.withUnsafeBufferPointer { HTTP2Session.startsWithPreface($0) }
    }

    func testThePrefaceIsRecognisedByteForByte() {
        let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        XCTAssertEqual(self.preface(preface), true)
        XCTAssertEqual(self.preface(preface + Array("\0\0\0\u{4}".utf8)), true)
        for length in 0..<preface.count {
            XCTAssertNil(self.preface(Array(preface.prefix(length))), "a prefix of \(length) bytes waits for more")
        }
        XCTAssertEqual(self.preface(Array("GET / HTTP/1.1\r\n".utf8)), false)
        XCTAssertEqual(self.preface(Array("PRI * HTTP/1.1\r\n".utf8)), false)
    }

    /// Feeds `fields` as nghttp2 hands them over, then the body.
    private func request(
        _ fields: [(String, String)], body: [String] = [], headerLimit: Int = 65_536, bodyLimit: Int = 1 << 20,
        secure: Bool = false
    ) -> (HTTP2ArrivingRequest, accepted: Bool) {
        var arriving = HTTP2ArrivingRequest()
        var accepted = true
        for (name, value) in fields {
            let nameBytes = Array(name.utf8), valueBytes = Array(value.utf8)
            accepted =
                nameBytes.withUnsafeBufferPointer { name in
                    valueBytes.withUnsafeBufferPointer { value in arriving.addHeader(name, value, limit: headerLimit) }
                } && accepted
        }
        for piece in body {
            Array(piece.utf8).withUnsafeBufferPointer { arriving.addBody($0, limit: bodyLimit) }
        }
        return (arriving, accepted)
    }

    func testAuthorityBecomesTheHostFieldFirst() {
        var (arriving, _) = request(
            [
                (":method", "POST"), (":scheme", "https"), (":authority", "example.test:8443"), (":path", "/a?b=1"),
                ("content-type", "text/plain"),
            ], body: ["hel", "lo"])
        let built = arriving.makeRequest(streamID: 5, secure: true)
        XCTAssertEqual(built.method, "POST")
        XCTAssertEqual(built.path, "/a")
        XCTAssertEqual(built.headers.fields.map(\.name), ["host", "content-type"])
        XCTAssertEqual(built.headers["host"], "example.test:8443")
        XCTAssertEqual(String(decoding: built.body, as: UTF8.self), "hello")
        XCTAssertEqual(built.streamID, 5)
        XCTAssertTrue(built.isSecure)
        XCTAssertNil(arriving.refusal)
    }

    func testAHostFieldTheClientSentIsKept() {
        var (arriving, _) = request([(":method", "GET"), (":authority", "a.test"), (":path", "/"), ("host", "b.test")])
        XCTAssertEqual(arriving.makeRequest(streamID: 1, secure: false).headers.values(for: "host"), ["b.test"])
    }

    func testSplitCookiesAreJoinedForTheEngineAndKeptAsReceivedForTheJournal() {
        var (arriving, _) = request([
            (":method", "GET"), (":authority", "x"), (":path", "/"), ("cookie", "a=1"), ("cookie", "b=2"),
        ])
        let built = arriving.makeRequest(streamID: 1, secure: false)
        XCTAssertEqual(built.headers.values(for: "cookie"), ["a=1; b=2"])
        XCTAssertEqual(built.receivedHeaders?.values(for: "cookie"), ["a=1", "b=2"])
    }

    func testAnEmptyPathIsTheRoot() {
        var (arriving, _) = request([(":method", "GET"), (":authority", "x")])
        XCTAssertEqual(arriving.makeRequest(streamID: 1, secure: false).path, "/")
    }

    func testHeaderBytesPastTheLimitAreRefused() {
        // Each field counts its name, its value and 32 bytes (RFC 9113 §6.5.2's accounting).
        let (_, accepted) = request(
            [(":method", "GET"), ("x-big", String(repeating: "v", count: 40))], headerLimit: 100)
        XCTAssertFalse(accepted)
        let (_, small) = request([(":method", "GET"), ("x-a", "v")], headerLimit: 100)
        XCTAssertTrue(small)
    }

    func testABodyPastTheLimitIsRefusedAndDropped() {
        var (arriving, _) = request([(":method", "POST"), (":path", "/up")], body: ["12345", "678"], bodyLimit: 6)
        XCTAssertEqual(arriving.refusal, "the request body is larger than the 6-byte limit")
        XCTAssertEqual(arriving.makeRequest(streamID: 1, secure: false).body, [])
    }

    /// Reads like nghttp2's data provider: up to `length` bytes, or deferred.
    private func read(_ body: inout HTTP2OutgoingBody, length: Int) -> (count: Int, bytes: String, eof: Bool) {
        var buffer = [UInt8](repeating: 0, count: length)
        var eof = false
        let count = buffer.withUnsafeMutableBufferPointer {
            body.read(into: $0.baseAddress!, length: length, endOfBody: &eof)
        }
        return (count, String(decoding: buffer.prefix(max(0, count)), as: UTF8.self), eof)
    }

    func testTheDataProviderReadsWhatIsReadyAndDefersForTheRest() {
        var body = HTTP2OutgoingBody()
        body.bytes = Array("hello".utf8)
        XCTAssertEqual(read(&body, length: 3).bytes, "hel")
        let rest = read(&body, length: 16)
        XCTAssertEqual(rest.bytes, "lo")
        XCTAssertFalse(rest.eof)
        let waiting = read(&body, length: 16)
        XCTAssertEqual(waiting.count, HTTP2OutgoingBody.deferral)
        XCTAssertTrue(body.deferred)
        body.deferred = false
        body.bytes = Array("!".utf8)
        body.ended = true
        let last = read(&body, length: 16)
        XCTAssertEqual(last.bytes, "!")
        XCTAssertTrue(last.eof)
    }

    func testAnEndedEmptyBodyEndsAtOnce() {
        var body = HTTP2OutgoingBody()
        body.ended = true
        let end = read(&body, length: 16)
        XCTAssertEqual(end.count, 0)
        XCTAssertTrue(end.eof)
    }

    func testAStalledBodyNeverGivesAByte() {
        var body = HTTP2OutgoingBody()
        body.bytes = Array("hello".utf8)
        body.ended = true
        body.stalled = true
        XCTAssertEqual(read(&body, length: 16).count, HTTP2OutgoingBody.deferral)
        XCTAssertFalse(read(&body, length: 16).eof)
    }
}
