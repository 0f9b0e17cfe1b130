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

    /// Issue 39: chunk extensions are read by RFC 9112 §7.1.1's grammar, then ignored.
    func testChunkExtensionsFollowTheGrammar() {
        func size(_ line: String) -> String {
            let bytes = Array(line.utf8)
            return bytes.withUnsafeBufferPointer {
                switch ChunkedBodyReader.chunkSize($0.baseAddress!, end: $0.count) {
                case .success(let size): return "\(size)"
                case .failure(let refusal): return "refused \(refusal.status): \(refusal.reason)"
                }
            }
        }
        for good in [
            "5;ext=value", #"5;ext="a b""#, "5 ; a = b\t;\tc", "5;a;b=c;d", #"5;q="";r=s"#,
            #"5;ilovew3="I \"love\"; \\extensions\\";somuchlove="aretheseparametersfor";blah;foo=bar"#,
        ] {
            XCTAssertEqual(size(good), "5", good)
        }
        XCTAssertEqual(
            size("2;"),
            "refused 400: a `;` in the chunk-size line `2;` is not followed by an extension name (RFC 9112 §7.1.1)")
        XCTAssertEqual(
            size(#"5;a="b"#),
            #"refused 400: a quoted chunk-extension value in `5;a="b` has no closing quote (RFC 9112 §7.1.1, RFC 9110 §5.6.4)"#
        )
        for bad in [
            "5; ", "5;;a", "5;a;", "5;=b", "5;a=", "5;a= ", "5;a=b c", "5;a ", "5;a=b ", #"5;a="b"c"#, #"5;a="b\"#,
            "5;a=\"b\u{1}\"", "5;a=b\u{7F}", #"5;ilovew3="abc";somuchlove="def; ghi"#,
        ] {
            XCTAssertTrue(size(bad).hasPrefix("refused 400"), bad)
        }
    }

    /// Issue 39: `Host = uri-host [ ":" port ]` (RFC 9112 §3.2, RFC 3986 §3.2.2, §3.2.3).
    func testHostMustBeAHostAndPort() {
        for good in [
            "x", "localhost:8080", "127.0.0.1:1", "ex-am_ple.test.", "%41b!$&'()*+,;=~", "", "x:", "[::1]", "[::1]:9",
            "[2001:db8::ffff:192.0.2.1]", "[1:2:3:4:5:6:7:8]", "[1:2:3:4:5:6:1.2.3.4]", "[1::]", "[::]",
            "[v1.fe80::a+en1]",
        ] {
            XCTAssertTrue(read("GET / HTTP/1.1\r\nHost: \(good)\r\n\r\n").0.hasPrefix("complete"), good)
        }
        XCTAssertEqual(
            read("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n").0,
            "refused 400: the Host value `a/b` is not `host[:port]`: `/` cannot appear in a host name (RFC 3986 §3.2.2, RFC 9112 §3.2)"
        )
        XCTAssertEqual(
            read("GET / HTTP/1.1\r\nHost: x:8o\r\n\r\n").0,
            "refused 400: the Host value `x:8o` has a port that is not a number (RFC 3986 §3.2.3, RFC 9112 §3.2)")
        XCTAssertTrue(read("GET / HTTP/1.1\r\nHost: caf\u{E9}\r\n\r\n").0.contains("0xC3 cannot appear"))
        for bad in [
            "a b", "user@x", "x:80:80", "x:-1", "a%zz", "a%4", "<x>", "[1:2:3]", "[::1]x", "[::1",
            "[1:2:3:4:5:6:7:8:9]",
            "[1::2::3]", "[:1]", "[1:]", "[12345::]", "[::256.1.1.1]", "[::1.2.3]", "[::01.2.3.4]", "[1.2.3.4]",
            "[fe80::1%25eth0]", "[v1]", "[v.x]", "[vx.y]", "[v1.]", "[]",
        ] {
            XCTAssertTrue(read("GET / HTTP/1.1\r\nHost: \(bad)\r\n\r\n").0.hasPrefix("refused 400"), bad)
        }
    }

    /// Issue 39: the request target is ASCII (RFC 3986 §2.1); the method and target are still read
    /// (`targetRead`), so the refusal is journaled with them.
    func testRawNonASCIIInTheTargetIsRefused() {
        let (outcome, parser) = read("GET /caf\u{E9}?q HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(
            outcome,
            "refused 400: the request target has a raw non-ASCII byte 0xC3; bytes outside ASCII must be percent-encoded (RFC 3986 §2.1, RFC 9112 §3.2)"
        )
        XCTAssertTrue(parser.targetRead)
        XCTAssertEqual(parser.targetEnd - parser.targetStart, "/caf\u{E9}?q".utf8.count)
        XCTAssertTrue(read("GET /caf%C3%A9 HTTP/1.1\r\nHost: x\r\n\r\n").0.hasPrefix("complete"))
        XCTAssertTrue(read("GET /a\u{7F} HTTP/1.1\r\nHost: x\r\n\r\n").0.contains("control character 0x7F"))
    }

    /// Issue 39: RFC 9110 §2.5, a higher minor version of HTTP/1 is processed as 1.1; another major is 505.
    func testHigherMinorVersionsAreReadAsHTTP11() {
        let (outcome, parser) = read("GET / HTTP/1.2\r\nHost: x\r\n\r\n")
        XCTAssertTrue(outcome.hasPrefix("complete"), outcome)
        XCTAssertEqual(parser.minorVersion, 1)
        XCTAssertTrue(parser.keepAlive)
        XCTAssertTrue(read("GET / HTTP/1.9\r\n\r\n").0.contains("without a Host"))
        for version in ["0.9", "2.0", "3.0"] {
            XCTAssertTrue(read("GET / HTTP/\(version)\r\nHost: x\r\n\r\n").0.hasPrefix("refused 505"), version)
        }
    }
}
