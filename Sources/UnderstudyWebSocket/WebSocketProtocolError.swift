/// Why the parser refused what a client sent, and the close code RFC 6455 §7.4.1 requires the
/// server to answer with (1002 for a framing violation, 1007 for a text that is not UTF-8, 1009 for a
/// message over the configured maximum).
public struct WebSocketProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The rule that was broken.
    public enum Violation: Equatable, Sendable {
        /// RSV1-3 set without an extension that defines them (§5.2); RSV1 is allowed only on the first
        /// frame of a data message when permessage-deflate is negotiated (RFC 7692 §6).
        case reservedBitsSet(UInt8)
        /// An opcode RFC 6455 reserves (3-7, 11-15).
        case unknownOpcode(UInt8)
        /// A client frame without the mask bit (§5.1: the server must close).
        case unmaskedFrame
        /// A control frame whose payload is over 125 bytes (§5.5).
        case controlFrameTooLong(Int)
        /// A control frame without FIN (§5.5: control frames are never fragmented).
        case fragmentedControlFrame
        /// A continuation frame with no fragmented message in progress (§5.4).
        case unexpectedContinuation
        /// A text or binary frame while a fragmented message waits for its continuation (§5.4).
        case expectedContinuation
        /// A length in a longer encoding than it needs (§5.2: "the minimal number of bytes MUST be used").
        case nonMinimalLength(UInt64)
        /// A 64-bit length with its most significant bit set (§5.2).
        case lengthTopBitSet
        /// A message (all its fragments) over the parser's maximum size.
        case messageTooBig(UInt64)
        /// A text message, or a close reason, that is not valid UTF-8 (§8.1, §5.5.1).
        case invalidUTF8
        /// A close frame whose payload is one byte: too short for a code (§5.5.1).
        case closePayloadTooShort
        /// A close code a peer may not send (§7.4.1, §7.4.2).
        case invalidCloseCode(UInt16)
    }

    /// The broken rule.
    public var violation: Violation

    /// The code the server closes the connection with.
    public var closeCode: WebSocketCloseCode {
        switch violation {
        case .invalidUTF8: return .invalidPayloadData
        case .messageTooBig: return .messageTooBig
        default: return .protocolError
        }
    }

    /// An error for `violation`.
    public init(_ violation: Violation) { self.violation = violation }

    /// The close code and the rule (`1002: unmaskedFrame`).
    public var description: String { "\(closeCode): \(violation)" }
}
