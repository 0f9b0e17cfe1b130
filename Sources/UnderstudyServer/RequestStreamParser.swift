import UnderstudyCore

/// Follows the framing of the request byte stream on one connection, exactly as libevent 2.1
/// frames it, without holding on to body bytes.
///
/// It exists because evhttp drops what the transport needs to journal some requests (see
/// ``RequestHead``). It mirrors libevent's rules rather than the RFC's, so that its idea of where
/// each request starts stays in step with evhttp's; when the stream is something evhttp will
/// refuse as malformed, it stops (evhttp answers 400 and closes the connection).
struct RequestStreamParser {
    /// What the parser found in the bytes it was given.
    enum Event {
        /// A request whose head is complete; evhttp will hand it to the server callback.
        case head(RequestHead)
        /// A request evhttp will refuse with 413 without calling the server (`reason` says why).
        case refused(RequestHead, reason: String)
    }

    /// What the parser needs next from the stream.
    enum Need: Equatable {
        /// `count` bytes of body that only have to be counted, not read.
        case skip(Int)
        /// Bytes to look at (a head, a chunk-size line or trailers).
        case inspect
        /// Nothing: the stream is past something evhttp refuses; the connection will close.
        case nothing
    }

    private enum State {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case trailer
        case stopped
    }

    private let maxBodyBytes: Int
    private let maxHeadBytes: Int
    private var state: State = .head
    private var line: [UInt8] = []
    private var headLines: [[UInt8]] = []
    private var headBytes = 0
    private var chunkedHead: RequestHead?
    private var chunkedTotal = 0

    init(maxBodyBytes: Int, maxHeadBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeadBytes = maxHeadBytes
    }

    var need: Need {
        switch state {
        case .fixedBody(let remaining), .chunkData(let remaining): return .skip(remaining)
        case .head, .chunkSize, .trailer: return .inspect
        case .stopped: return .nothing
        }
    }

    /// Counts `count` body bytes as passed (never more than ``need`` asked for).
    mutating func skip(_ count: Int) {
        switch state {
        case .fixedBody(let remaining):
            state = remaining - count > 0 ? .fixedBody(remaining: remaining - count) : .head
        case .chunkData(let remaining):
            state = remaining - count > 0 ? .chunkData(remaining: remaining - count) : .chunkSize
        default:
            break
        }
    }

    /// Reads bytes while ``need`` is `.inspect`; returns how many were used and what was found.
    mutating func inspect(_ bytes: UnsafeRawBufferPointer) -> (used: Int, events: [Event]) {
        var events: [Event] = []
        var used = 0
        while used < bytes.count, need == .inspect {
            let byte = bytes[used]
            used += 1
            if byte != UInt8(ascii: "\n") {
                line.append(byte)
                if case .head = state { headBytes += 1 }
                // Past the header limit (or an absurd chunk line) evhttp answers 400 and closes.
                if headBytes > maxHeadBytes + 2 || line.count > maxHeadBytes + 2 { state = .stopped }
                continue
            }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            let completed = line
            line.removeAll(keepingCapacity: true)
            if let event = take(line: completed) { events.append(event) }
        }
        return (used, events)
    }

    /// Handles one complete line (without its line ending).
    private mutating func take(line completed: [UInt8]) -> Event? {
        switch state {
        case .head:
            if !completed.isEmpty {
                headLines.append(completed)
                return nil
            }
            defer { headLines.removeAll(); headBytes = 0 }
            guard let head = parseHead() else {
                state = .stopped
                return nil
            }
            return begin(head)
        case .chunkSize:
            // evhttp skips blank lines here: they are the CRLF that ends the previous chunk.
            if completed.isEmpty { return nil }
            guard let size = Self.chunkSize(completed), let head = chunkedHead else {
                state = .stopped
                return chunkedHead.map { .refused($0, reason: "malformed chunked request body") }
            }
            if chunkedTotal + size > maxBodyBytes {
                state = .stopped
                return .refused(head, reason: "request body exceeds the \(maxBodyBytes)-byte limit")
            }
            chunkedTotal += size
            state = size == 0 ? .trailer : .chunkData(remaining: size)
            return nil
        case .trailer:
            if completed.isEmpty {
                state = .head
                headBytes = 0
            }
            return nil
        case .fixedBody, .chunkData, .stopped:
            return nil
        }
    }

    /// Decides how the body after `head` is framed, as evhttp 2.1 does.
    private mutating func begin(_ head: RequestHead) -> Event? {
        // evhttp reads no body for HEAD, TRACE or methods it does not know. The transport takes the
        // body of an unknown method itself when it declared a length, so count those bytes too.
        let hasBody = head.libeventReadsBody || !head.isKnownToLibevent
        guard hasBody else {
            state = .head
            return .head(head)
        }
        if head.chunked {
            guard head.libeventReadsBody else {
                state = .stopped  // the server refuses it and closes the connection
                return .head(head)
            }
            chunkedHead = head
            chunkedTotal = 0
            state = .chunkSize
            return .head(head)
        }
        let length = head.declaredLength ?? 0
        if length > maxBodyBytes && head.libeventReadsBody {
            state = .stopped
            return .refused(head, reason: "request body of \(length) bytes exceeds the \(maxBodyBytes)-byte limit")
        }
        state = length > 0 ? .fixedBody(remaining: length) : .head
        return .head(head)
    }

    /// Parses the collected head lines; nil where evhttp would answer 400.
    private func parseHead() -> RequestHead? {
        guard let first = headLines.first else { return nil }
        let parts = first.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty,
              let method = String(validating: parts[0], as: UTF8.self),
              let target = String(validating: parts[1], as: UTF8.self) else { return nil }
        var headers = HTTPHeaders()
        for raw in headLines.dropFirst() {
            if raw.first == UInt8(ascii: " ") || raw.first == UInt8(ascii: "\t") {
                continue  // folded continuation: evhttp appends it to the previous value
            }
            guard let colon = raw.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let name = String(decoding: raw[..<colon], as: UTF8.self)
            let value = String(decoding: raw[(colon + 1)...], as: UTF8.self)
                .trimmingSpaces()
            headers.append(name: name, value: value)
        }
        var declared: Int?
        let chunked = headers["Transfer-Encoding"].map { $0.lowercased() == "chunked" } ?? false
        if !chunked, let text = headers["Content-Length"] {
            guard let value = Int(text), value >= 0 else { return nil }
            declared = value
        }
        return RequestHead(method: method, target: target, headers: headers, declaredLength: declared, chunked: chunked)
    }

    /// Parses a chunk-size line the way evhttp does: hex digits, optionally followed by a space.
    private static func chunkSize(_ line: [UInt8]) -> Int? {
        let digits = line.prefix { $0 != UInt8(ascii: " ") }
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        return Int(String(decoding: digits, as: UTF8.self), radix: 16)
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (header values, as evhttp trims them).
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
