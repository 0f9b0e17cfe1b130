import XCTest
import UnderstudyWebSocket

/// Every framing rule RFC 6455 §5 puts on a server reading a client, table-driven: each case's bytes
/// are parsed whole, one byte at a time and in three-byte chunks, and must give the same events and
/// the violation (with the close code §7.4.1 requires) in every feed.
final class FrameParserRuleTests: XCTestCase {
    private struct Case {
        var name: String
        var bytes: [UInt8]
        var configuration = WebSocketFrameParser.Configuration()
        var expected: ParseOutcome
    }

    private func check(_ cases: [Case], file: StaticString = #filePath, line: UInt = #line) {
        for rule in cases {
            assertParses(
                rule.bytes, configuration: rule.configuration, to: rule.expected, rule.name, file: file, line: line)
        }
    }

    func testReservedBitsNeedANegotiatedExtension() {
        let deflate = WebSocketFrameParser.Configuration(allowsCompression: true)
        let compressed = WebSocketMessage(kind: .text, payload: [1, 2, 3], isCompressed: true)
        check([
            Case(
                name: "RSV1 without an extension", bytes: clientFrame(.text, [0x41], reservedBits: 0x40),
                expected: failure(.reservedBitsSet(0x40))),
            Case(
                name: "RSV2", bytes: clientFrame(.text, [0x41], reservedBits: 0x20),
                expected: failure(.reservedBitsSet(0x20))),
            Case(
                name: "RSV3", bytes: clientFrame(.binary, [], reservedBits: 0x10),
                expected: failure(.reservedBitsSet(0x10))),
            Case(
                name: "RSV2 with deflate", bytes: clientFrame(.text, [0x41], reservedBits: 0x20),
                configuration: deflate,
                expected: failure(.reservedBitsSet(0x20))),
            Case(
                name: "RSV1 on a message's first frame with deflate",
                bytes: clientFrame(.text, [1, 2], fin: false, reservedBits: 0x40) + clientFrame(.continuation, [3]),
                configuration: deflate, expected: success(.message(compressed))),
            Case(
                name: "RSV1 on a continuation with deflate",
                bytes: clientFrame(.text, [1], fin: false, reservedBits: 0x40)
                    + clientFrame(.continuation, [2], reservedBits: 0x40),
                configuration: deflate, expected: failure(.reservedBitsSet(0x40))),
            Case(
                name: "RSV1 on a ping with deflate", bytes: clientFrame(.ping, [], reservedBits: 0x40),
                configuration: deflate, expected: failure(.reservedBitsSet(0x40))),
        ])
    }

    func testOnlyKnownOpcodes() {
        for opcode: UInt8 in [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            assertParses([0x80 | opcode, 0x80, 1, 2, 3, 4], to: failure(.unknownOpcode(opcode)), "opcode \(opcode)")
        }
    }

    func testClientFramesMustBeMasked() {
        check([
            Case(name: "unmasked text", bytes: WebSocketFrameWriter.text("Hello"), expected: failure(.unmaskedFrame)),
            Case(name: "unmasked ping", bytes: try! WebSocketFrameWriter.ping(), expected: failure(.unmaskedFrame)),
            Case(
                name: "unmasked read as a client", bytes: WebSocketFrameWriter.text("Hello"),
                configuration: .init(requiresMask: false), expected: success(.message(.text("Hello")))),
        ])
    }

    func testControlFramesAreShortAndNeverFragmented() {
        let long = [UInt8](repeating: 0x61, count: 126)
        check([
            Case(
                name: "ping of 125 bytes", bytes: clientFrame(.ping, Array(long.prefix(125))),
                expected: success(.ping(Array(long.prefix(125))))),
            Case(
                name: "ping of 126 bytes", bytes: clientFrame(.ping, long), expected: failure(.controlFrameTooLong(126))
            ),
            Case(
                name: "pong of 126 bytes", bytes: clientFrame(.pong, long), expected: failure(.controlFrameTooLong(126))
            ),
            Case(
                name: "close of 126 bytes", bytes: clientFrame(.close, [0x03, 0xE8] + long.prefix(124)),
                expected: failure(.controlFrameTooLong(126))),
            Case(
                name: "ping without FIN", bytes: clientFrame(.ping, [1], fin: false),
                expected: failure(.fragmentedControlFrame)),
            Case(
                name: "pong without FIN", bytes: clientFrame(.pong, [], fin: false),
                expected: failure(.fragmentedControlFrame)),
            Case(
                name: "close without FIN", bytes: clientFrame(.close, [], fin: false),
                expected: failure(.fragmentedControlFrame)),
        ])
    }

    func testContinuationsOnlyInsideAFragmentedMessage() {
        check([
            Case(
                name: "continuation first", bytes: clientFrame(.continuation, [0x41]),
                expected: failure(.unexpectedContinuation)),
            Case(
                name: "continuation after a whole message", bytes: clientText("a") + clientFrame(.continuation, [0x41]),
                expected: failure(.unexpectedContinuation, after: [.message(.text("a"))])),
            Case(
                name: "text inside a fragmented message", bytes: clientText("a", fin: false) + clientText("b"),
                expected: failure(.expectedContinuation)),
            Case(
                name: "binary inside a fragmented message",
                bytes: clientText("a", fin: false) + clientFrame(.binary, [1]), expected: failure(.expectedContinuation)
            ),
            Case(
                name: "three fragments",
                bytes: clientText("He", fin: false) + clientFrame(.continuation, Array("l".utf8), fin: false)
                    + clientFrame(.continuation, Array("lo".utf8)),
                expected: success(.message(.text("Hello")))),
            Case(
                name: "empty fragments",
                bytes: clientFrame(.binary, [], fin: false) + clientFrame(.continuation, [], fin: false)
                    + clientFrame(.continuation, [7]),
                expected: success(.message(.binary([7])))),
            Case(
                name: "control frames between fragments",
                bytes: clientText("Hel", fin: false) + clientFrame(.ping, [1]) + clientFrame(.pong, [2])
                    + clientFrame(.continuation, Array("lo".utf8)),
                expected: success(.ping([1]), .pong([2]), .message(.text("Hello")))),
        ])
    }

    /// Lengths in the minimal encoding only, 64-bit ones with the top bit clear (§5.2). The frames are
    /// written by hand: the writer always picks the minimal encoding.
    func testLengthEncodings() {
        let key: [UInt8] = [0, 0, 0, 0]  // a zero key leaves the payload as written
        let payload126 = [UInt8](repeating: 2, count: 126)
        let payload65536 = [UInt8](repeating: 3, count: 65536)
        check([
            Case(
                name: "125 in 16 bits", bytes: [0x82, 0x80 | 126, 0x00, 125] + key + [UInt8](repeating: 1, count: 125),
                expected: failure(.nonMinimalLength(125))),
            Case(
                name: "0 in 16 bits", bytes: [0x82, 0x80 | 126, 0x00, 0x00] + key,
                expected: failure(.nonMinimalLength(0))),
            Case(
                name: "126 in 16 bits", bytes: [0x82, 0x80 | 126, 0x00, 126] + key + payload126,
                expected: success(.message(.binary(payload126)))),
            Case(
                name: "65535 in 64 bits", bytes: [0x82, 0x80 | 127, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + key,
                expected: failure(.nonMinimalLength(65535))),
            Case(
                name: "5 in 64 bits", bytes: [0x82, 0x80 | 127, 0, 0, 0, 0, 0, 0, 0, 5] + key + [1, 2, 3, 4, 5],
                expected: failure(.nonMinimalLength(5))),
            Case(
                name: "65536 in 64 bits", bytes: [0x82, 0x80 | 127, 0, 0, 0, 0, 0, 1, 0, 0] + key + payload65536,
                expected: success(.message(.binary(payload65536)))),
            Case(
                name: "top bit set", bytes: [0x82, 0x80 | 127, 0x80, 0, 0, 0, 0, 1, 0, 0] + key,
                expected: failure(.lengthTopBitSet)),
        ])
    }

    func testMaximumMessageSize() {
        let small = WebSocketFrameParser.Configuration(maxMessageSize: 10)
        let ten = [UInt8](repeating: 9, count: 10)
        check([
            Case(
                name: "exactly the maximum", bytes: clientFrame(.binary, ten), configuration: small,
                expected: success(.message(.binary(ten)))),
            Case(
                name: "one frame over", bytes: clientFrame(.binary, ten + [9]), configuration: small,
                expected: failure(.messageTooBig(11))),
            Case(
                name: "fragments adding up to over",
                bytes: clientFrame(.text, Array("abcdef".utf8), fin: false)
                    + clientFrame(.continuation, Array("ghijk".utf8)),
                configuration: small, expected: failure(.messageTooBig(11))),
            Case(
                name: "a 2^62-byte frame announced", bytes: [0x82, 0xFF, 0x40, 0, 0, 0, 0, 0, 0, 0],
                expected: failure(.messageTooBig(1 << 62))),
            Case(
                name: "control frames do not count", bytes: clientFrame(.ping, ten + ten), configuration: small,
                expected: success(.ping(ten + ten))),
        ])
    }

    func testTextMustBeUTF8AcrossFragments() {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]  // "€"
        let emoji: [UInt8] = [0xF0, 0x9F, 0x98, 0x80]  // U+1F600
        check([
            Case(
                name: "a code point split between fragments",
                bytes: clientFrame(.text, [0x61, euro[0]], fin: false)
                    + clientFrame(.continuation, [euro[1]], fin: false)
                    + clientFrame(.continuation, [euro[2], 0x62]),
                expected: success(.message(.text("a€b")))),
            Case(
                name: "four bytes over four fragments",
                bytes: emoji.enumerated().flatMap {
                    clientFrame($0.offset == 0 ? .text : .continuation, [$0.element], fin: $0.offset == 3)
                },
                expected: success(.message(.text("😀")))),
            Case(name: "invalid byte", bytes: clientFrame(.text, [0x61, 0xFF]), expected: failure(.invalidUTF8)),
            Case(
                name: "Autobahn 6.3.1 (surrogate)",
                bytes: clientFrame(.text, [0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xED, 0xA0, 0x80, 0x65]),
                expected: failure(.invalidUTF8)),
            Case(name: "overlong '/'", bytes: clientFrame(.text, [0xC0, 0xAF]), expected: failure(.invalidUTF8)),
            Case(
                name: "above U+10FFFF", bytes: clientFrame(.text, [0xF4, 0x90, 0x80, 0x80]),
                expected: failure(.invalidUTF8)),
            Case(
                name: "message ends inside a code point", bytes: clientFrame(.text, [0x61, euro[0], euro[1]]),
                expected: failure(.invalidUTF8)),
            Case(
                name: "last fragment ends inside a code point",
                bytes: clientFrame(.text, [0x61], fin: false) + clientFrame(.continuation, [euro[0]]),
                expected: failure(.invalidUTF8)),
            Case(
                name: "invalid in a later fragment, before it ends",
                bytes: clientText("ok", fin: false) + clientFrame(.continuation, [0x80], fin: false),
                expected: failure(.invalidUTF8)),
            Case(
                name: "binary is not checked", bytes: clientFrame(.binary, [0xFF, 0xC0]),
                expected: success(.message(.binary([0xFF, 0xC0])))),
            Case(
                name: "a compressed text is checked after inflating, not here",
                bytes: clientFrame(.text, [0xFF], reservedBits: 0x40), configuration: .init(allowsCompression: true),
                expected: success(.message(WebSocketMessage(kind: .text, payload: [0xFF], isCompressed: true)))),
        ])
    }

    /// Close codes per §7.4.1/§7.4.2 and the IANA registry: every code from 0 to 65535 that a peer may
    /// send closes with it; every other is a protocol error.
    func testCloseCodes() {
        for raw in [UInt16](0...5100) + [5999, 65535] {
            let code = WebSocketCloseCode(rawValue: raw)
            let allowed = (1000...1003).contains(raw) || (1007...1014).contains(raw) || (3000...4999).contains(raw)
            XCTAssertEqual(code.isAllowedOnWire, allowed, "\(raw)")
            let expected = allowed ? success(.close(WebSocketClose(code: code))) : failure(.invalidCloseCode(raw))
            XCTAssertEqual(parse(clientClose(code: raw)), expected, "\(raw)")
        }
        for raw: UInt16 in [999, 1000, 1004, 1005, 1006, 1012, 1013, 1014, 1015, 1016, 2999, 3000, 4999, 5000] {
            let allowed = WebSocketCloseCode(rawValue: raw).isAllowedOnWire
            let expected =
                allowed ? success(.close(WebSocketClose(code: .init(rawValue: raw)))) : failure(.invalidCloseCode(raw))
            assertParses(clientClose(code: raw), to: expected, "\(raw)")
        }
    }

    func testClosePayloads() {
        check([
            Case(name: "empty", bytes: clientFrame(.close), expected: success(.close(WebSocketClose(code: nil)))),
            Case(name: "one byte", bytes: clientFrame(.close, [0x03]), expected: failure(.closePayloadTooShort)),
            Case(
                name: "code and reason", bytes: clientClose(code: 1001, reason: Array("bye ✓".utf8)),
                expected: success(.close(WebSocketClose(code: .goingAway, reason: "bye ✓")))),
            Case(
                name: "reason not UTF-8", bytes: clientClose(code: 1000, reason: [0x61, 0xC3]),
                expected: failure(.invalidUTF8)),
            Case(
                name: "nothing after the close",
                bytes: clientClose(code: 1000) + clientText("late") + [0xFF, 0xFF, 0xFF],
                expected: success(.close(WebSocketClose(code: .normalClosure)))),
            Case(
                name: "a close ends a fragmented message",
                bytes: clientText("half", fin: false) + clientClose(code: 1000),
                expected: success(.close(WebSocketClose(code: .normalClosure)))),
        ])
    }

    func testViolationsMapToTheirCloseCodes() {
        XCTAssertEqual(WebSocketProtocolError(.invalidUTF8).closeCode, .invalidPayloadData)
        XCTAssertEqual(WebSocketProtocolError(.messageTooBig(1)).closeCode, .messageTooBig)
        for violation: WebSocketProtocolError.Violation in [
            .reservedBitsSet(0x40), .unknownOpcode(3), .unmaskedFrame, .controlFrameTooLong(126),
            .fragmentedControlFrame,
            .unexpectedContinuation, .expectedContinuation, .nonMinimalLength(1), .lengthTopBitSet,
            .closePayloadTooShort,
            .invalidCloseCode(1005),
        ] {
            XCTAssertEqual(WebSocketProtocolError(violation).closeCode, .protocolError, "\(violation)")
        }
    }
}
