/// A frame's header as decoded from the wire (RFC 6455 §5.2): FIN, the RSV bits, the opcode, the
/// payload length and the masking key.
struct WebSocketFrameHeader: Equatable, Sendable {
    var fin: Bool
    /// RSV1-3 as they sit in the first byte (0x40, 0x20, 0x10).
    var reservedBits: UInt8
    var opcode: WebSocketOpcode
    var length: UInt64
    /// The four masking-key bytes as one big-endian word, or nil for an unmasked frame.
    var maskingKey: UInt32?

    /// RSV1: permessage-deflate's "this message is compressed" bit (RFC 7692 §6).
    static let rsv1: UInt8 = 0x40
}

/// Decodes one frame header from the front of a buffer, checking each rule as soon as the byte it
/// depends on is there: a violation in the first bytes fails at once, before the rest of the header
/// (or a payload that would never come) arrives, and the same rule fails whether the bytes came
/// whole or one at a time, since the checks run in the same order.
struct WebSocketFrameHeaderDecoder {
    /// What the decoder needs to know of the connection's state.
    var allowsCompression: Bool
    var requiresMask: Bool
    var maxMessageSize: UInt64

    /// The decoded header and its size in bytes, nil when `bytes` is too short to finish it.
    /// - Parameters:
    ///   - inMessage: a fragmented message is in progress (continuations expected).
    ///   - messageSoFar: the bytes that message already has.
    func decode(
        _ bytes: ArraySlice<UInt8>, inMessage: Bool, messageSoFar: Int
    ) throws(WebSocketProtocolError) -> (header: WebSocketFrameHeader, size: Int)? {
        let start = bytes.startIndex
        guard bytes.count >= 1 else { return nil }
        let first = bytes[start]
        let fin = first & 0x80 != 0
        let reserved = first & 0x70
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw WebSocketProtocolError(.unknownOpcode(first & 0x0F))
        }
        let compressedStart = allowsCompression && (opcode == .text || opcode == .binary)
        if reserved != 0, !(compressedStart && reserved == WebSocketFrameHeader.rsv1) {
            throw WebSocketProtocolError(.reservedBitsSet(reserved))
        }
        if opcode.isControl, !fin { throw WebSocketProtocolError(.fragmentedControlFrame) }
        if opcode == .continuation, !inMessage { throw WebSocketProtocolError(.unexpectedContinuation) }
        if opcode == .text || opcode == .binary, inMessage { throw WebSocketProtocolError(.expectedContinuation) }

        guard bytes.count >= 2 else { return nil }
        let second = bytes[start + 1]
        let masked = second & 0x80 != 0
        if requiresMask, !masked { throw WebSocketProtocolError(.unmaskedFrame) }
        let shortLength = second & 0x7F
        if opcode.isControl, shortLength > 125 { throw WebSocketProtocolError(.controlFrameTooLong(Int(shortLength))) }

        var offset = 2
        let length: UInt64
        switch shortLength {
        case 126:
            guard bytes.count >= offset + 2 else { return nil }
            length = Self.bigEndian(bytes, from: start + offset, count: 2)
            if length < 126 { throw WebSocketProtocolError(.nonMinimalLength(length)) }
            offset += 2
        case 127:
            guard bytes.count >= offset + 1 else { return nil }
            if bytes[start + offset] & 0x80 != 0 { throw WebSocketProtocolError(.lengthTopBitSet) }
            guard bytes.count >= offset + 8 else { return nil }
            length = Self.bigEndian(bytes, from: start + offset, count: 8)
            if length <= 0xFFFF { throw WebSocketProtocolError(.nonMinimalLength(length)) }
            offset += 8
        default:
            length = UInt64(shortLength)
        }
        if !opcode.isControl, UInt64(messageSoFar) + length > maxMessageSize {
            throw WebSocketProtocolError(.messageTooBig(UInt64(messageSoFar) + length))
        }

        var maskingKey: UInt32?
        if masked {
            guard bytes.count >= offset + 4 else { return nil }
            maskingKey = UInt32(Self.bigEndian(bytes, from: start + offset, count: 4))
            offset += 4
        }
        let header = WebSocketFrameHeader(
            fin: fin, reservedBits: reserved, opcode: opcode, length: length, maskingKey: maskingKey)
        return (header, offset)
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>, from index: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes[index..<index + count] { value = value << 8 | UInt64(byte) }
        return value
    }
}
