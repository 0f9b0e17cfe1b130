import XCTest
import UnderstudyWebSocket

/// RFC 6455's own examples (§5.7) through the parser and the writer, and how the parser behaves
/// around the rules: how early it fails, that a failure sticks, that events keep their order.
final class FrameParserTests: XCTestCase {
    private let readingAServer = WebSocketFrameParser.Configuration(requiresMask: false)

    // §5.7's examples, byte for byte.
    private let helloUnmasked: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
    private let helloMasked: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
    private let helloFragmented: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]
    private let pingUnmasked: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
    private let pongMasked: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]

    func testRFCExamplesParse() {
        let hello = Array("Hello".utf8)
        assertParses(helloMasked, to: success(.message(.text("Hello"))), "masked text")
        assertParses(pongMasked, to: success(.pong(hello)), "masked pong")
        assertParses(
            helloUnmasked, configuration: readingAServer, to: success(.message(.text("Hello"))), "unmasked text")
        assertParses(
            helloFragmented, configuration: readingAServer, to: success(.message(.text("Hello"))), "fragmented")
        assertParses(pingUnmasked, configuration: readingAServer, to: success(.ping(hello)), "unmasked ping")
    }

    func testRFCExamplesAreWhatTheWriterWrites() throws {
        XCTAssertEqual(WebSocketFrameWriter.text("Hello"), helloUnmasked)
        XCTAssertEqual(WebSocketFrameWriter.text("Hello", fragmentSize: 3), helloFragmented)
        XCTAssertEqual(try WebSocketFrameWriter.ping(Array("Hello".utf8)), pingUnmasked)
        let masked = WebSocketFrame(opcode: .text, maskingKey: [0x37, 0xFA, 0x21, 0x3D], payload: Array("Hello".utf8))
        XCTAssertEqual(masked.bytes, helloMasked)
        XCTAssertEqual(WebSocketFaultFrames.maskedServerFrame(text: "Hello"), helloMasked)
    }

    /// §5.7: "256 bytes binary message in a single unmasked frame" (0x82 0x7E 0x0100) and "64KiB
    /// binary message in a single unmasked frame" (0x82 0x7F 0x0000000000010000).
    func testRFCLengthExamples() {
        let bytes256 = (0..<256).map { UInt8($0 & 0xFF) }
        let frame256 = WebSocketFrameWriter.binary(bytes256)
        XCTAssertEqual(Array(frame256.prefix(4)), [0x82, 0x7E, 0x01, 0x00])
        XCTAssertEqual(frame256.count, 4 + 256)
        let bytes64K = (0..<65536).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let frame64K = WebSocketFrameWriter.binary(bytes64K)
        XCTAssertEqual(Array(frame64K.prefix(10)), [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
        XCTAssertEqual(frame64K.count, 10 + 65536)
        assertParses(frame256, configuration: readingAServer, to: success(.message(.binary(bytes256))))
        assertParses(frame64K, configuration: readingAServer, to: success(.message(.binary(bytes64K))))
        // The same from a client: masked, so the unmasking runs across every chunk boundary.
        assertParses(clientFrame(.binary, bytes64K), to: success(.message(.binary(bytes64K))), "masked 64 KiB")
    }

    /// A violation in a header is reported as soon as the byte that shows it arrives: the rest of
    /// the frame (here, a payload that never comes) is not waited for.
    func testHeaderViolationsFailAtTheirByte() {
        let cases: [(bytes: [UInt8], failsAfter: Int, violation: WebSocketProtocolError.Violation)] = [
            ([0xC1, 0x85], 1, .reservedBitsSet(0x40)),
            ([0x83, 0x85], 1, .unknownOpcode(3)),
            ([0x09, 0x85], 1, .fragmentedControlFrame),
            ([0x80, 0x85], 1, .unexpectedContinuation),
            ([0x81, 0x05], 2, .unmaskedFrame),
            ([0x89, 0xFE], 2, .controlFrameTooLong(126)),
            ([0x82, 0xFF, 0x80], 3, .lengthTopBitSet),
            ([0x82, 0xFE, 0x00, 0x7D], 4, .nonMinimalLength(125)),
        ]
        for (bytes, failsAfter, violation) in cases {
            var parser = WebSocketFrameParser()
            for (index, byte) in bytes.enumerated() {
                parser.append([byte])
                do {
                    let event = try parser.next()
                    XCTAssertNil(event)
                    XCTAssertLessThan(index + 1, failsAfter, "\(violation) not reported at byte \(failsAfter)")
                } catch {
                    XCTAssertEqual(index + 1, failsAfter, "\(violation)")
                    XCTAssertEqual(error.violation, violation)
                    break
                }
            }
        }
    }

    /// A text frame's bad byte fails before the rest of its payload has arrived.
    func testInvalidUTF8FailsBeforeTheFrameEnds() {
        var parser = WebSocketFrameParser()
        let frame = clientFrame(.text, [0x61, 0xFF] + [UInt8](repeating: 0x61, count: 100))
        parser.append(frame.prefix(6 + 2))  // header (2) + key (4) + "a" + the bad byte
        XCTAssertThrowsError(try parser.next()) {
            XCTAssertEqual(($0 as? WebSocketProtocolError)?.closeCode, .invalidPayloadData)
        }
    }

    func testAFailureSticks() {
        var parser = WebSocketFrameParser()
        parser.append(WebSocketFrameWriter.text("unmasked"))
        XCTAssertThrowsError(try parser.next())
        parser.append(clientText("fine"))
        XCTAssertThrowsError(try parser.next()) {
            XCTAssertEqual($0 as? WebSocketProtocolError, WebSocketProtocolError(.unmaskedFrame))
        }
    }

    func testMessagesInOrderAcrossManyAppends() throws {
        var stream: [UInt8] = []
        var expected: [WebSocketEvent] = []
        for index in 0..<200 {
            let text = String(repeating: "é", count: index)
            stream +=
                clientFrame(.text, Array(text.utf8), fin: false) + clientFrame(.ping, [UInt8(index)])
                + clientFrame(.continuation, [0x21])
            expected += [.ping([UInt8(index)]), .message(.text(text + "!"))]
            stream += clientFrame(.binary, [UInt8(index), 0])
            expected.append(.message(.binary([UInt8(index), 0])))
        }
        stream += clientClose(code: 1000, reason: Array("done".utf8))
        expected.append(.close(WebSocketClose(code: .normalClosure, reason: "done")))
        for feed in Feed.allCases {
            let outcome = parse(stream, feed: feed)
            XCTAssertNil(outcome.error)
            XCTAssertEqual(outcome.events, expected, "\(feed)")
        }
        var parser = WebSocketFrameParser()
        parser.append(stream)
        while try parser.next() != nil {}
        XCTAssertTrue(parser.isClosed)
    }
}
