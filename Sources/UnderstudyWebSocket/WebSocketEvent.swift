/// What the parser yields from a client's frames: a whole (reassembled) message, a ping, a pong or
/// the close frame, in the order they arrived (control frames may arrive between a fragmented
/// message's frames, and are yielded as they come, before the message).
public enum WebSocketEvent: Equatable, Sendable {
    /// A text or binary message, its fragments joined.
    case message(WebSocketMessage)
    /// A ping and its payload (at most 125 bytes), which the server answers with a pong.
    case ping([UInt8])
    /// A pong and its payload.
    case pong([UInt8])
    /// The client's close frame; the parser yields nothing after it.
    case close(WebSocketClose)
}

/// A data message as the client sent it, fragments joined and unmasked.
public struct WebSocketMessage: Equatable, Sendable {
    /// Text (UTF-8) or binary.
    public enum Kind: Equatable, Sendable {
        /// Opcode 1: the payload is UTF-8 (checked unless the message is compressed).
        case text
        /// Opcode 2: the payload is opaque bytes.
        case binary
    }

    /// Text or binary.
    public var kind: Kind
    /// The payload: all fragments' bytes, unmasked (still deflated when ``isCompressed``).
    public var payload: [UInt8]
    /// RSV1 was set on the first frame (permessage-deflate, RFC 7692): the payload is deflated, and
    /// a text message's UTF-8 is for whoever inflates it to check (``UTF8Validator``).
    public var isCompressed: Bool

    /// A message; `isCompressed` only when permessage-deflate is in use.
    public init(kind: Kind, payload: [UInt8], isCompressed: Bool = false) {
        self.kind = kind
        self.payload = payload
        self.isCompressed = isCompressed
    }

    /// A text message with `text`, uncompressed.
    public static func text(_ text: String) -> WebSocketMessage {
        WebSocketMessage(kind: .text, payload: Array(text.utf8))
    }

    /// A binary message with `bytes`, uncompressed.
    public static func binary(_ bytes: [UInt8]) -> WebSocketMessage { WebSocketMessage(kind: .binary, payload: bytes) }

    /// The text of an uncompressed text message (whose UTF-8 the parser has checked); nil otherwise.
    public var text: String? {
        guard kind == .text, !isCompressed else { return nil }
        return String(decoding: payload, as: UTF8.self)
    }
}

/// A received close frame: its code (nil when the payload was empty, which RFC 6455 reports as
/// 1005) and its reason (UTF-8, possibly empty).
public struct WebSocketClose: Equatable, Sendable {
    /// The code, or nil for a close frame with an empty payload.
    public var code: WebSocketCloseCode?
    /// The reason; empty when none was given.
    public var reason: String

    /// A close with `code` and `reason`.
    public init(code: WebSocketCloseCode?, reason: String = "") {
        self.code = code
        self.reason = reason
    }
}
