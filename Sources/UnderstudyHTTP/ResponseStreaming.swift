/// How the transport paces a response's body instead of writing it at once (issue 15).
public enum ResponseStreaming: Sendable, Equatable {
    /// The journal's name for each kind.
    public enum Kind: String, Sendable {
        /// `dribble`: the body in evenly spaced pieces.
        case dribble
        /// `throttle`: the body at a bounded rate (`bytesPerSecond`).
        case throttle
        /// `events`: a Server-Sent Events stream.
        case events
    }

    /// The body in `chunks` pieces, the first at once and the last `overMs` later, evenly spaced.
    case dribble(chunks: Int, overMs: Double)
    /// The body at no more than `bytesPerSecond`.
    case throttle(bytesPerSecond: Int)
    /// A `text/event-stream`: each event after its `delayMs`, then the response ends.
    case events([ServerSentEvent])

    /// The journal's name for it: `"dribble"`, `"throttle"` or `"events"`.
    public var kind: Kind {
        switch self {
        case .dribble: return .dribble
        case .throttle: return .throttle
        case .events: return .events
        }
    }

    /// The pieces to write and when, in milliseconds after the headers; `body` is the response's.
    public func pieces(body: [UInt8]) -> [(atMs: Double, bytes: [UInt8])] {
        switch self {
        case .dribble(let chunks, let overMs):
            let count = max(1, min(chunks, body.count))
            guard body.count > 0 else { return [] }
            var pieces: [(Double, [UInt8])] = []
            pieces.reserveCapacity(count)
            for index in 0..<count {
                let start = body.count * index / count, end = body.count * (index + 1) / count
                let at = count == 1 ? 0 : overMs * Double(index) / Double(count - 1)
                pieces.append((at, Array(body[start..<end])))
            }
            return pieces
        case .throttle(let rate):
            // Ticks of at least 50 ms (fewer timers), each carrying what the rate allows by then.
            let tickMs = max(50, 1000 / Double(max(1, rate)))
            let perTick = max(1, Int((Double(rate) * tickMs / 1000).rounded(.down)))
            var pieces: [(Double, [UInt8])] = []
            var offset = 0, tick = 0
            while offset < body.count {
                let end = min(body.count, offset + perTick)
                pieces.append((Double(tick) * tickMs, Array(body[offset..<end])))
                offset = end
                tick += 1
            }
            return pieces
        case .events(let events):
            var at = 0.0
            return events.map { event in
                at += event.delayMs
                return (at, event.wireBytes)
            }
        }
    }
}

/// One Server-Sent Event (WHATWG HTML §9.2) as a stub describes it.
public struct ServerSentEvent: Sendable, Equatable {
    /// `event:` — the event type; nil sends none (a `message`).
    public var event: String?
    /// `data:` — split at line breaks into one `data:` line each.
    public var data: String?
    /// `id:`
    public var id: String?
    /// `retry:` — the reconnection time in milliseconds.
    public var retry: Int?
    /// A comment line (`: text`), sent before the fields.
    public var comment: String?
    /// Milliseconds after the previous event (or the headers) before this one is sent.
    public var delayMs: Double

    /// An event with the given fields; each field left nil is not sent, and it goes out at once
    /// unless `delayMs` says otherwise.
    public init(
        event: String? = nil, data: String? = nil, id: String? = nil, retry: Int? = nil,
        comment: String? = nil, delayMs: Double = 0
    ) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
        self.comment = comment
        self.delayMs = delayMs
    }

    /// The event as written on the stream, ending with the blank line that dispatches it.
    public var wireBytes: [UInt8] {
        var text = ""
        if let comment {
            for line in Self.lines(comment) { text += ": " + line + "\n" }
        }
        if let event { text += "event: " + event + "\n" }
        if let id { text += "id: " + id + "\n" }
        if let retry { text += "retry: " + String(retry) + "\n" }
        if let data {
            for line in Self.lines(data) { text += "data: " + line + "\n" }
        }
        text += "\n"
        return Array(text.utf8)
    }

    /// Lines split at CRLF, LF or CR (the three line ends the SSE parser accepts).
    static func lines(_ text: String) -> [String] {
        var lines: [String] = []
        var current: [UInt8] = []
        var previousCR = false
        for byte in text.utf8 {
            if byte == 0x0A && previousCR {
                previousCR = false
                continue
            }
            previousCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                lines.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        lines.append(String(decoding: current, as: UTF8.self))
        return lines
    }
}
