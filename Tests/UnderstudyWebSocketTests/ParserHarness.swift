import XCTest
import UnderstudyWebSocket

/// What a parser made of a byte stream: the events it yielded, then the error it stopped on.
struct ParseOutcome: Equatable, CustomStringConvertible {
    var events: [WebSocketEvent] = []
    var error: WebSocketProtocolError?

    var description: String { "events \(events), error \(error.map(String.init(describing:)) ?? "none")" }
}

/// How the bytes reach the parser: whole, one byte per `append`, or in chunks of a few bytes.
enum Feed: CaseIterable {
    case whole
    case oneByteAtATime
    case chunksOfThree

    func chunks(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        let size: Int
        switch self {
        case .whole: return [bytes[...]]
        case .oneByteAtATime: size = 1
        case .chunksOfThree: size = 3
        }
        return stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
    }
}

/// Feeds `bytes` to a fresh parser the way `feed` says and collects what it yields.
func parse(
    _ bytes: [UInt8], configuration: WebSocketFrameParser.Configuration = .init(), feed: Feed = .whole
) -> ParseOutcome {
    var parser = WebSocketFrameParser(configuration: configuration)
    var outcome = ParseOutcome()
    for chunk in feed.chunks(bytes) {
        parser.append(chunk)
        do {
            while let event = try parser.next() { outcome.events.append(event) }
        } catch {
            outcome.error = error
            return outcome
        }
    }
    return outcome
}

/// Parses `bytes` in every ``Feed`` and asserts each gives `expected`: a rule holds whether the bytes
/// come whole or one at a time.
func assertParses(
    _ bytes: [UInt8], configuration: WebSocketFrameParser.Configuration = .init(), to expected: ParseOutcome,
    _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
    for feed in Feed.allCases {
        XCTAssertEqual(
            parse(bytes, configuration: configuration, feed: feed), expected, "\(message) (\(feed))", file: file,
            line: line)
    }
}

/// A client's frame: masked with a fixed key (RFC 6455 §5.7's), as a client must send it.
func clientFrame(
    _ opcode: WebSocketOpcode, _ payload: [UInt8] = [], fin: Bool = true, reservedBits: UInt8 = 0
) -> [UInt8] {
    WebSocketFrame(
        fin: fin, reservedBits: reservedBits, opcode: opcode, maskingKey: [0x37, 0xFA, 0x21, 0x3D], payload: payload
    ).bytes
}

/// A client's text frame.
func clientText(_ text: String, fin: Bool = true) -> [UInt8] { clientFrame(.text, Array(text.utf8), fin: fin) }

/// A client's close frame with a raw code and reason bytes.
func clientClose(code: UInt16, reason: [UInt8] = []) -> [UInt8] {
    clientFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + reason)
}

/// An outcome that stopped on `violation` after `events`.
func failure(_ violation: WebSocketProtocolError.Violation, after events: [WebSocketEvent] = []) -> ParseOutcome {
    ParseOutcome(events: events, error: WebSocketProtocolError(violation))
}

/// An outcome with `events` and no error.
func success(_ events: WebSocketEvent...) -> ParseOutcome { ParseOutcome(events: events) }
