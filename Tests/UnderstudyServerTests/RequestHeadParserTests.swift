@testable import UnderstudyServer
import XCTest

/// The transport's parser on bytes: each head read whole and resumed at every split point (the
/// bytes before the split first, then all of them, as a connection's growing buffer shows them)
/// gives the same outcome. The wire-level cases are in Tests/BlackBox/test_http1_conformance.py.
final class RequestHeadParserTests: XCTestCase {
    private let limits = RequestHeadParser.Limits(maxRequestLine: 1024, maxFieldBytes: 1024, maxFields: 8)

    /// The outcome for `text` read whole, after checking every split agrees with it.
    private func read(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> (String, RequestHeadParser)
    {
        let bytes = Array(text.utf8)
        func describe(_ outcome: RequestHeadParser.Outcome) -> String {
            switch outcome {
            case .incomplete: return "incomplete"
            case .complete(let end): return "complete \(end)"
            case .refused(let refusal): return "refused \(refusal.status): \(refusal.reason)"
            }
        }
        var whole = RequestHeadParser(limits: limits)
        let expected = bytes.withUnsafeBufferPointer { describe(whole.read($0.baseAddress!, count: $0.count)) }
        for split in 1..<bytes.count {
            var parser = RequestHeadParser(limits: limits)
            let outcome = bytes.withUnsafeBufferPointer { buffer -> String in
                let first = describe(parser.read(buffer.baseAddress!, count: split))
                if first != "incomplete" { return first }
                return describe(parser.read(buffer.baseAddress!, count: buffer.count))
            }
            XCTAssertEqual(outcome, expected, "split at \(split)", file: file, line: line)
        }
        return (expected, whole)
    }

    func testAWholeHeadAndItsFraming() {
        let (outcome, parser) = read("POST /a?b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
        XCTAssertEqual(outcome, "complete 50")  // 20 + 9 + 19 + 2 bytes: the body is not part of the head
        XCTAssertEqual(parser.framing, .length(5))
        XCTAssertEqual(parser.fields.count, 2)
        XCTAssertTrue(parser.keepAlive)
    }

    func testChunkedAndConnectionRules() {
        XCTAssertEqual(
            read("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip , chunked\r\n\r\n").0,
            "refused 501: transfer coding `gzip` is not implemented; only chunked is (RFC 9112 §6.1)")
        let (_, chunked) = read("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(chunked.framing, .chunked)
        XCTAssertFalse(chunked.keepAlive)
        let (_, old) = read("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertTrue(old.keepAlive)
        XCTAssertEqual(old.minorVersion, 0)
    }

    func testRefusalsNameTheirRule() {
        XCTAssertEqual(
            read("POST / HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\n").0,
            "refused 400: whitespace before the colon in `Content-Length` (RFC 9112 §5.1)")
        XCTAssertTrue(read("GET / HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n").0.contains("obs-fold"))
        XCTAssertTrue(read("GET / HTTP/1.1\r\nX: a\r\n\r\n").0.contains("without a Host"))
        XCTAssertTrue(read("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n").0.hasPrefix("refused 400"))
        XCTAssertTrue(read("GET / HTTP/1.1\r\nHost: x\nX: y\r\n\r\n").0.contains("bare LF"))
        XCTAssertTrue(read("GET / HTTP/3.0\r\nHost: x\r\n\r\n").0.hasPrefix("refused 505"))
        XCTAssertTrue(
            read("GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 1\r\nC: 1\r\nD: 1\r\nE: 1\r\nF: 1\r\nG: 1\r\nH: 1\r\n\r\n").0
                .hasPrefix("refused 431"))
        XCTAssertTrue(read("GET /\(String(repeating: "a", count: 1100)) HTTP/1.1\r\n").0.hasPrefix("refused 414"))
    }

    func testChunkSizesAreHexDigitsAndExtensionsOnly() {
        func size(_ line: String) -> String {
            let bytes = Array(line.utf8)
            return bytes.withUnsafeBufferPointer {
                switch ChunkedBodyReader.chunkSize($0.baseAddress!, end: $0.count) {
                case .success(let size): return "\(size)"
                case .failure(let refusal): return "refused \(refusal.status)"
                }
            }
        }
        XCTAssertEqual(size("1e"), "30")
        XCTAssertEqual(size("5;foo=bar"), "5")
        XCTAssertEqual(size("5 ;foo"), "5")
        for bad in ["0x5", "+5", " 5", "5 junk", "5 ", "fffffffffffffffff", ";x"] {
            XCTAssertEqual(size(bad), "refused 400", bad)
        }
    }
}
