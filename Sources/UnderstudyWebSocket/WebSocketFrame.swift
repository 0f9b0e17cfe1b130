/// One frame as it goes on the wire (RFC 6455 §5.2), any bit settable: the writer builds correct
/// frames from it, ``WebSocketFaultFrames`` deliberately wrong ones, and tests masked client frames.
public struct WebSocketFrame: Equatable, Sendable {
    /// The last frame of its message (always set on a control frame that keeps the rules).
    public var fin: Bool
    /// RSV1-3 as they sit in the first byte (0x40, 0x20, 0x10); zero without an extension.
    public var reservedBits: UInt8
    /// What the frame carries.
    public var opcode: WebSocketOpcode
    /// The four masking-key bytes (a client's frames), or nil (a server's).
    public var maskingKey: [UInt8]?
    /// The payload, unmasked; ``encode(into:)`` masks it with ``maskingKey``.
    public var payload: [UInt8]

    /// RSV1, which permessage-deflate uses to mark a compressed message (RFC 7692 §6).
    public static let rsv1: UInt8 = 0x40
    /// RSV2, which no registered extension uses.
    public static let rsv2: UInt8 = 0x20
    /// RSV3, which no registered extension uses.
    public static let rsv3: UInt8 = 0x10

    /// A frame; by default a final, unmasked one with no RSV bit.
    public init(
        fin: Bool = true, reservedBits: UInt8 = 0, opcode: WebSocketOpcode, maskingKey: [UInt8]? = nil,
        payload: [UInt8] = []
    ) {
        precondition(maskingKey == nil || maskingKey?.count == 4, "a masking key is four bytes")
        self.fin = fin
        self.reservedBits = reservedBits
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payload = payload
    }

    /// Appends the frame's bytes to `output`, with the length in its minimal encoding.
    public func encode(into output: inout [UInt8]) {
        output.append((fin ? 0x80 : 0) | (reservedBits & 0x70) | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        let length = payload.count
        if length < 126 {
            output.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            output.append(maskBit | 126)
            output.append(UInt8(length >> 8))
            output.append(UInt8(length & 0xFF))
        } else {
            output.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                output.append(UInt8(truncatingIfNeeded: length >> shift))
            }
        }
        guard let key = maskingKey else {
            output.append(contentsOf: payload)
            return
        }
        output.append(contentsOf: key)
        for (index, byte) in payload.enumerated() { output.append(byte ^ key[index & 3]) }
    }

    /// The frame's bytes.
    public var bytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(payload.count + 14)
        encode(into: &output)
        return output
    }
}
