/// The server's frames (RFC 6455 §5: unmasked), ready to write to the connection: messages, whole
/// or fragmented on request, and the control frames.
public enum WebSocketFrameWriter {
    /// A control frame's payload over 125 bytes (§5.5), which no frame may carry.
    public struct ControlPayloadTooLong: Error, Equatable, Sendable {
        /// The payload's length.
        public var length: Int

        /// The error for a payload of `length` bytes.
        public init(length: Int) { self.length = length }
    }

    /// A text message: one frame, or fragments of at most `fragmentSize` bytes each (a fragment
    /// boundary may fall inside a code point, as the RFC allows).
    public static func text(_ text: String, fragmentSize: Int? = nil) -> [UInt8] {
        message(opcode: .text, payload: Array(text.utf8), fragmentSize: fragmentSize)
    }

    /// A binary message: one frame, or fragments of at most `fragmentSize` bytes each.
    public static func binary(_ payload: [UInt8], fragmentSize: Int? = nil) -> [UInt8] {
        message(opcode: .binary, payload: payload, fragmentSize: fragmentSize)
    }

    /// The frames of a data message: the first with `opcode`, the rest continuations, FIN on the
    /// last. An empty payload is one empty frame.
    public static func frames(opcode: WebSocketOpcode, payload: [UInt8], fragmentSize: Int? = nil) -> [WebSocketFrame] {
        precondition(opcode == .text || opcode == .binary, "only text and binary messages are fragmented")
        let size = max(1, fragmentSize ?? max(payload.count, 1))
        var frames: [WebSocketFrame] = []
        var start = 0
        repeat {
            let end = min(start + size, payload.count)
            frames.append(
                WebSocketFrame(
                    fin: end == payload.count, opcode: frames.isEmpty ? opcode : .continuation,
                    payload: Array(payload[start..<end])))
            start = end
        } while start < payload.count
        return frames
    }

    /// A ping with `payload` (at most 125 bytes).
    public static func ping(_ payload: [UInt8] = []) throws(ControlPayloadTooLong) -> [UInt8] {
        try control(.ping, payload)
    }

    /// A pong with `payload` (at most 125 bytes): the answer to a ping carries the ping's payload.
    public static func pong(_ payload: [UInt8] = []) throws(ControlPayloadTooLong) -> [UInt8] {
        try control(.pong, payload)
    }

    /// A close frame: empty when `code` is nil, else the code and the UTF-8 reason (at most 123
    /// bytes, so the payload stays within 125). Any code is written as given (a fault may send one a
    /// peer may not: ``WebSocketCloseCode/isAllowedOnWire``).
    public static func close(code: WebSocketCloseCode?, reason: String = "") throws(ControlPayloadTooLong) -> [UInt8] {
        guard let code else { return try control(.close, []) }
        return try control(.close, [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)] + Array(reason.utf8))
    }

    /// The close frame that answers a client's violation: the code §7.4.1 requires for it
    /// (``WebSocketProtocolError/closeCode``) and no reason.
    public static func close(for error: WebSocketProtocolError) -> [UInt8] {
        let code = error.closeCode.rawValue
        return WebSocketFrame(opcode: .close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)]).bytes
    }

    private static func message(opcode: WebSocketOpcode, payload: [UInt8], fragmentSize: Int?) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(payload.count + 14)
        for frame in frames(opcode: opcode, payload: payload, fragmentSize: fragmentSize) {
            frame.encode(into: &output)
        }
        return output
    }

    private static func control(_ opcode: WebSocketOpcode, _ payload: [UInt8]) throws(ControlPayloadTooLong) -> [UInt8]
    {
        guard payload.count <= 125 else { throw ControlPayloadTooLong(length: payload.count) }
        return WebSocketFrame(opcode: opcode, payload: payload).bytes
    }
}
