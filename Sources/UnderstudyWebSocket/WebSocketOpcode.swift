/// A frame's opcode (RFC 6455 §5.2): the four bits that say what the frame carries. Only the six
/// opcodes the RFC defines exist here; the parser refuses the reserved ones (3-7, 11-15) with 1002.
public enum WebSocketOpcode: UInt8, Sendable, CaseIterable {
    /// A later fragment of a fragmented text or binary message.
    case continuation = 0x0
    /// The first (or only) frame of a text message: UTF-8.
    case text = 0x1
    /// The first (or only) frame of a binary message.
    case binary = 0x2
    /// A close frame: an optional code and UTF-8 reason (§5.5.1).
    case close = 0x8
    /// A ping, which the peer answers with a pong carrying the same payload (§5.5.2).
    case ping = 0x9
    /// A pong, an answer to a ping or an unsolicited heartbeat (§5.5.3).
    case pong = 0xA

    /// Control frames (close, ping, pong) carry at most 125 bytes and are never fragmented (§5.5).
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
