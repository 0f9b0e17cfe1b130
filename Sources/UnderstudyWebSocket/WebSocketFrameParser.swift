/// The server side of RFC 6455's framing: fed a client's bytes in chunks of any size (one byte at a
/// time works), it yields whole messages, pings, pongs and the close frame, and refuses every
/// framing rule a server must enforce with the close code §7.4.1 requires.
///
/// ```swift
/// var parser = WebSocketFrameParser()
/// parser.append(bytesFromTheSocket)
/// while let event = try parser.next() { … }   // a thrown error's closeCode is what to close with
/// ```
///
/// It is a value with no I/O: the transport feeds it, so every rule is tested without a socket.
/// After a violation it throws the same error again; after a close frame it yields nothing more
/// (§5.5.1: no data follows a close) and drops whatever else arrives.
public struct WebSocketFrameParser: Sendable {
    /// What the connection negotiated and what the server will hold.
    public struct Configuration: Sendable, Equatable {
        /// The largest message (all its fragments' payloads) accepted; a bigger one fails with 1009
        /// as soon as a frame header announces it.
        public var maxMessageSize: Int
        /// permessage-deflate was negotiated (RFC 7692): RSV1 may mark a data message's first frame.
        public var allowsCompression: Bool
        /// Frames must be masked (a server reading a client: §5.1). Off only to read a server's frames.
        public var requiresMask: Bool

        /// A configuration; the default accepts 16 MiB messages, no extension, masked frames only.
        public init(maxMessageSize: Int = 16 << 20, allowsCompression: Bool = false, requiresMask: Bool = true) {
            self.maxMessageSize = maxMessageSize
            self.allowsCompression = allowsCompression
            self.requiresMask = requiresMask
        }
    }

    /// Where the parser is between frames.
    private enum State: Sendable {
        /// Waiting for a frame header.
        case header
        /// Reading a frame's payload: how much is left and where in the masking key it resumes.
        case payload(WebSocketFrameHeader, remaining: Int, maskPhase: Int)
        /// A rule was broken; the error is thrown again on every call.
        case failed(WebSocketProtocolError)
        /// The close frame was yielded.
        case closed
    }

    /// A fragmented (or in-progress) data message.
    private struct PartialMessage: Sendable {
        var kind: WebSocketMessage.Kind
        var isCompressed: Bool
        var payload: [UInt8] = []
        var utf8 = UTF8Validator()
    }

    /// The connection's configuration.
    public let configuration: Configuration
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var state = State.header
    private var message: PartialMessage?
    /// The payload of the control frame being read (it may arrive in pieces too).
    private var controlPayload: [UInt8] = []

    /// A parser at the start of a connection.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Adds bytes as they came from the connection; ``next()`` parses them.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex > 4096, readIndex * 2 > buffer.count {
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// True once the client's close frame has been yielded.
    public var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// The next event the bytes so far complete, or nil when more bytes are needed.
    /// - Throws: ``WebSocketProtocolError`` when the client broke a rule; close with its `closeCode`.
    public mutating func next() throws(WebSocketProtocolError) -> WebSocketEvent? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .closed:
                buffer.removeAll(keepingCapacity: false)
                readIndex = 0
                return nil
            case .header:
                let decoder = WebSocketFrameHeaderDecoder(
                    allowsCompression: configuration.allowsCompression, requiresMask: configuration.requiresMask,
                    maxMessageSize: UInt64(max(0, configuration.maxMessageSize)))
                let decoded: (header: WebSocketFrameHeader, size: Int)?
                do {
                    decoded = try decoder.decode(
                        buffer[readIndex...], inMessage: message != nil, messageSoFar: message?.payload.count ?? 0)
                } catch {
                    return try fail(error)
                }
                guard let (header, size) = decoded else { return nil }
                readIndex += size
                begin(header)
                state = .payload(header, remaining: Int(header.length), maskPhase: 0)
            case .payload(let header, let remaining, let maskPhase):
                let count = min(remaining, buffer.count - readIndex)
                if count > 0 { try consumePayload(of: header, count: count, maskPhase: maskPhase) }
                guard count == remaining else {
                    state = .payload(header, remaining: remaining - count, maskPhase: (maskPhase + count) & 3)
                    return nil
                }
                state = .header
                if let event = try finish(header) { return event }
            }
        }
    }

    /// Starts a frame whose header was just read: a text or binary frame opens a message.
    private mutating func begin(_ header: WebSocketFrameHeader) {
        switch header.opcode {
        case .text, .binary:
            message = PartialMessage(
                kind: header.opcode == .text ? .text : .binary, isCompressed: header.reservedBits != 0)
        case .continuation:
            break
        case .close, .ping, .pong:
            controlPayload.removeAll(keepingCapacity: true)
        }
    }

    /// Moves `count` payload bytes from the buffer into the message (checking a text's UTF-8 as it
    /// goes, so a bad byte fails before the rest arrives) or the control frame's payload, unmasked.
    private mutating func consumePayload(
        of header: WebSocketFrameHeader, count: Int, maskPhase: Int
    ) throws(WebSocketProtocolError) {
        let range = readIndex..<readIndex + count
        readIndex += count
        if header.opcode.isControl {
            controlPayload.append(contentsOf: buffer[range])
            Self.unmask(&controlPayload, from: controlPayload.count - count, key: header.maskingKey, phase: maskPhase)
            return
        }
        guard var partial = message else { return }
        message = nil  // so that `partial` holds the payload's only reference and appends in place
        let from = partial.payload.count
        partial.payload.append(contentsOf: buffer[range])
        Self.unmask(&partial.payload, from: from, key: header.maskingKey, phase: maskPhase)
        if partial.kind == .text, !partial.isCompressed, !partial.utf8.consume(partial.payload[from...]) {
            return try fail(WebSocketProtocolError(.invalidUTF8))
        }
        message = partial
    }

    /// XORs `bytes[from...]` with the masking key (§5.3), starting at byte `phase` of the key.
    private static func unmask(_ bytes: inout [UInt8], from: Int, key: UInt32?, phase: Int) {
        guard let key else { return }
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in from..<buffer.count {
                let shift = UInt32(24 - 8 * ((phase + index - from) & 3))
                buffer[index] ^= UInt8(truncatingIfNeeded: key >> shift)
            }
        }
    }

    /// Ends a frame whose payload is all read: the event it completes, if any.
    private mutating func finish(_ header: WebSocketFrameHeader) throws(WebSocketProtocolError) -> WebSocketEvent? {
        switch header.opcode {
        case .ping:
            return .ping(controlPayload)
        case .pong:
            return .pong(controlPayload)
        case .close:
            let close = try closeFrame(controlPayload)
            state = .closed
            message = nil
            return .close(close)
        case .text, .binary, .continuation:
            guard header.fin, let partial = message else { return nil }
            if partial.kind == .text, !partial.isCompressed, !partial.utf8.isAtCodePointBoundary {
                return try fail(WebSocketProtocolError(.invalidUTF8))
            }
            message = nil
            return .message(
                WebSocketMessage(kind: partial.kind, payload: partial.payload, isCompressed: partial.isCompressed))
        }
    }

    /// A close frame's payload judged by §5.5.1 and §7.4: empty, or a code a peer may send and a
    /// UTF-8 reason.
    private mutating func closeFrame(_ payload: [UInt8]) throws(WebSocketProtocolError) -> WebSocketClose {
        if payload.isEmpty { return WebSocketClose(code: nil) }
        if payload.count == 1 { return try fail(WebSocketProtocolError(.closePayloadTooShort)) }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        if !code.isAllowedOnWire { return try fail(WebSocketProtocolError(.invalidCloseCode(code.rawValue))) }
        let reason = payload[2...]
        if !UTF8Validator.isValid(reason) { return try fail(WebSocketProtocolError(.invalidUTF8)) }
        return WebSocketClose(code: code, reason: String(decoding: reason, as: UTF8.self))
    }

    /// Records the violation (every later call throws it again) and throws it.
    private mutating func fail<T>(_ error: WebSocketProtocolError) throws(WebSocketProtocolError) -> T {
        state = .failed(error)
        buffer.removeAll()
        readIndex = 0
        throw error
    }
}
