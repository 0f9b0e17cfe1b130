import XCTest
import UnderstudyWebSocket

/// The server's frames: unmasked, fragmented on request, control frames within 125 bytes, and the
/// deliberately bad frames of issue 45's faults, each checked byte for byte and against the parser
/// (read as a client would: unmasked frames allowed), which must refuse exactly the broken rule.
final class FrameWriterTests: XCTestCase {
    private let readingAServer = WebSocketFrameParser.Configuration(requiresMask: false)

    func testFragmentation() {
        let bytes = WebSocketFrameWriter.binary([1, 2, 3, 4, 5], fragmentSize: 2)
        XCTAssertEqual(bytes, [0x02, 0x02, 1, 2, 0x00, 0x02, 3, 4, 0x80, 0x01, 5])
        XCTAssertEqual(WebSocketFrameWriter.text(""), [0x81, 0x00])
        XCTAssertEqual(WebSocketFrameWriter.text("ab", fragmentSize: 10), [0x81, 0x02, 0x61, 0x62])
        // A split inside "€" is legal on the wire; the parser joins it back.
        let split = WebSocketFrameWriter.text("a€", fragmentSize: 2)
        XCTAssertEqual(split, [0x01, 0x02, 0x61, 0xE2, 0x80, 0x02, 0x82, 0xAC])
        assertParses(split, configuration: readingAServer, to: success(.message(.text("a€"))))
    }

    func testControlFrames() throws {
        XCTAssertEqual(try WebSocketFrameWriter.pong([9]), [0x8A, 0x01, 9])
        XCTAssertEqual(try WebSocketFrameWriter.close(code: nil), [0x88, 0x00])
        XCTAssertEqual(
            try WebSocketFrameWriter.close(code: .serviceRestart, reason: "restart"),
            [0x88, 0x09, 0x03, 0xF4] + Array("restart".utf8))
        XCTAssertEqual(try WebSocketFrameWriter.close(code: .tryAgainLater), [0x88, 0x02, 0x03, 0xF5])
        XCTAssertNoThrow(try WebSocketFrameWriter.ping([UInt8](repeating: 0, count: 125)))
        XCTAssertThrowsError(try WebSocketFrameWriter.ping([UInt8](repeating: 0, count: 126))) {
            XCTAssertEqual($0 as? WebSocketFrameWriter.ControlPayloadTooLong, .init(length: 126))
        }
        XCTAssertThrowsError(
            try WebSocketFrameWriter.close(code: .normalClosure, reason: String(repeating: "x", count: 124)))
        XCTAssertEqual(
            WebSocketFrameWriter.close(for: WebSocketProtocolError(.unmaskedFrame)), [0x88, 0x02, 0x03, 0xEA])
        XCTAssertEqual(WebSocketFrameWriter.close(for: WebSocketProtocolError(.invalidUTF8)), [0x88, 0x02, 0x03, 0xEF])
        XCTAssertEqual(
            WebSocketFrameWriter.close(for: WebSocketProtocolError(.messageTooBig(1))), [0x88, 0x02, 0x03, 0xF1])
        // Any code may be written on purpose; the parser (as a client) refuses the ones peers may not send.
        let local = try WebSocketFrameWriter.close(code: .abnormalClosure)
        XCTAssertEqual(local, [0x88, 0x02, 0x03, 0xEE])
        assertParses(local, configuration: readingAServer, to: failure(.invalidCloseCode(1006)))
    }

    func testFaultFrames() {
        let rsv = WebSocketFaultFrames.reservedBitsSet(text: "hi")
        XCTAssertEqual(rsv, [0xC1, 0x02, 0x68, 0x69])
        assertParses(rsv, configuration: readingAServer, to: failure(.reservedBitsSet(0x40)))
        XCTAssertEqual(WebSocketFaultFrames.reservedBitsSet(text: "", bits: WebSocketFrame.rsv3), [0x91, 0x00])

        let masked = WebSocketFaultFrames.maskedServerFrame(text: "Hello", maskingKey: [1, 2, 3, 4])
        let hello: [UInt8] = Array("Hello".utf8)
        let key: [UInt8] = [1, 2, 3, 4]
        let maskedHello: [UInt8] = hello.enumerated().map { $0.element ^ key[$0.offset % 4] }
        XCTAssertEqual(masked, [0x81, 0x85] + key + maskedHello)

        let invalid = WebSocketFaultFrames.invalidUTF8Text()
        XCTAssertEqual(Array(invalid.prefix(2)), [0x81, 20])
        assertParses(invalid, configuration: readingAServer, to: failure(.invalidUTF8))
        XCTAssertEqual(WebSocketFaultFrames.invalidUTF8Text([0xFF]), [0x81, 0x01, 0xFF])

        let cut = WebSocketFaultFrames.truncatedFragmentedMessage(
            payload: Array("abcdef".utf8), fragmentSize: 2, keptFragments: 2)
        XCTAssertEqual(cut, [0x01, 0x02, 0x61, 0x62, 0x00, 0x02, 0x63, 0x64])
        XCTAssertEqual(parse(cut, configuration: readingAServer), ParseOutcome(), "half a message yields nothing")
        // Cut even before the last fragment of a message that fits in one: FIN is still clear.
        XCTAssertEqual(
            WebSocketFaultFrames.truncatedFragmentedMessage(opcode: .binary, payload: [1, 2], fragmentSize: 8),
            [0x02, 0x02, 1, 2])
    }

    /// Frames the writer makes, masked the way a client would send them, round-trip through the parser.
    func testRoundTripThroughTheParser() {
        let payload = (0..<70000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for fragmentSize in [1, 125, 126, 65535, 65536, 100_000] {
            var bytes: [UInt8] = []
            let key: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF]
            for var frame in WebSocketFrameWriter.frames(opcode: .binary, payload: payload, fragmentSize: fragmentSize)
            {
                frame.maskingKey = key
                frame.encode(into: &bytes)
            }
            XCTAssertEqual(parse(bytes, feed: .chunksOfThree), success(.message(.binary(payload))), "\(fragmentSize)")
        }
    }
}
