import UnderstudyCore

/// Follows the framing of the request byte stream on one connection, exactly as libevent 2.1
/// frames it, without holding on to body bytes.
///
/// It exists because evhttp drops what the transport needs to journal some requests (see
/// ``RequestHead``). It mirrors libevent's rules rather than the RFC's, so that its idea of where
/// each request starts stays in step with evhttp's; when the stream is something evhttp will
/// refuse as malformed, it stops (evhttp answers 400 and closes the connection).
///
/// It runs on every byte the server reads, so the common path is a scan in place: a head that
/// lies whole in the bytes it is given (the usual case) is read where it is, its lines found with
/// a byte search and only the framing fields looked at closely (see ``HeadFraming``); only a head
/// split across reads is copied, into one reused buffer. A head is turned into a ``RequestHead``
/// (strings, header list) only when it is reported or kept (see ``Reporting``).
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

    /// Which complete heads are reported as ``Event/head(_:)``. Refusals are always reported.
    enum Reporting {
        /// Every request's head.
        case everyHead
        /// Only heads of methods libevent 2.1 does not know: evhttp hands those over nameless
        /// (and without their body), so the server needs the head; for every other request
        /// evhttp's own parse says all there is.
        case unknownMethods
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
    private let reporting: Reporting
    private var state: State = .head
    /// In the head state: the bytes of a head that began in an earlier call, as they arrived
    /// (line endings included), or empty while the head is read in place. Otherwise the
    /// chunk-size or trailer line being read, without its CR. Reused.
    private var buffer: [UInt8] = []
    /// In the head state, where the line being read starts in `buffer`.
    private var lineStart = 0
    /// While a head is in `buffer`: its bytes so far, line feeds excepted (as evhttp counts them).
    private var headBytes = 0
    /// While a head is in `buffer`: what its lines said so far.
    private var framing = HeadFraming()
    private var chunkedHead: RequestHead?
    private var chunkedTotal = 0

    init(maxBodyBytes: Int, maxHeadBytes: Int, reporting: Reporting = .everyHead) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeadBytes = maxHeadBytes
        self.reporting = reporting
        // `buffer` is allocated only when a head spans reads (most connections never need it).
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

    /// Reads bytes while ``need`` is `.inspect`, up to and including the first thing found;
    /// returns how many were used and that thing. The caller calls again for the rest: events
    /// are rare (most heads are not reported), so the usual call returns no event and no array.
    mutating func inspect(_ bytes: UnsafeRawBufferPointer) -> (used: Int, event: Event?) {
        guard let raw = bytes.baseAddress else { return (0, nil) }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let end = bytes.count
        var used = 0
        while used < end {
            let event: Event?
            switch state {
            case .head where buffer.isEmpty:
                (used, event) = readHead(base, from: used, to: end)
            case .head:
                (used, event) = readSpilledHead(base, from: used, to: end)
            case .chunkSize, .trailer:
                (used, event) = readBodyLine(base, from: used, to: end)
            case .fixedBody, .chunkData, .stopped:
                return (used, nil)
            }
            if event != nil { return (used, event) }
        }
        return (used, nil)
    }

    /// Where the next line feed at or after `from` is, before `end`.
    @inline(__always)
    private static func lineFeed(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
        ByteScan.firstIndex(of: UInt8(ascii: "\n"), in: base, from: from, to: end)
    }

    /// Reads a head that starts at `from`, in place: the usual case, a whole head in one chunk,
    /// copies nothing. A head that goes on past `end` is kept in `buffer` (see
    /// ``readSpilledHead(_:from:to:)``).
    ///
    /// The head's size is checked only once its lines up to `end` have been taken: it only grows
    /// line by line, and an oversized head stops the reader whether that shows at its last line
    /// or earlier (no event comes of a head before its blank line).
    @inline(__always)
    private mutating func readHead(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> (used: Int, event: Event?) {
        var framing = HeadFraming()  // a head read in place starts here (see `inspect`)
        var position = from
        while true {
            switch framing.takeLine(base, from: position, to: end) {
            case .taken(let lineFeed):
                position = lineFeed + 1
            case .blank(let lineFeed):
                // As evhttp counts: every byte but the line feeds (one per line taken).
                guard lineFeed - from - framing.lines <= maxHeadBytes + 2 else {
                    state = .stopped
                    return (lineFeed, nil)
                }
                return (lineFeed + 1, endHead(framing, lines: UnsafeBufferPointer(start: base + from, count: position - from)))
            case .invalid:
                state = .stopped
                return (end, nil)
            case .incomplete:
                headBytes = end - from - framing.lines
                guard headBytes <= maxHeadBytes + 2 else {
                    state = .stopped
                    return (end, nil)
                }
                self.framing = framing
                buffer.append(contentsOf: UnsafeBufferPointer(start: base + from, count: end - from))
                lineStart = position - from
                return (end, nil)
            }
        }
    }

    /// Reads on in a head whose earlier bytes are in `buffer`, one line at a time (a head split
    /// across reads is rare; this path copies each line). `framing` and `headBytes` are the
    /// head's so far.
    private mutating func readSpilledHead(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> (used: Int, event: Event?) {
        let lineFeed = Self.lineFeed(base, from: from, to: end)
        let runEnd = lineFeed.map { $0 + 1 } ?? end
        buffer.append(contentsOf: UnsafeBufferPointer(start: base + from, count: runEnd - from))
        headBytes += lineFeed.map { $0 - from } ?? end - from
        if headBytes > maxHeadBytes + 2 {
            state = .stopped
            return (runEnd, nil)
        }
        guard lineFeed != nil else { return (end, nil) }
        // The head is taken out of `self` while its bytes are looked at, so that `self` can change.
        var head: [UInt8] = []
        swap(&head, &buffer)
        let start = lineStart
        var ended = false
        let event: Event? = head.withUnsafeBufferPointer { all in
            let base = all.baseAddress!  // not empty: it holds at least the line feed
            // The line is whole: it ends in the buffer's last byte, a line feed.
            switch framing.takeLine(base, from: start, to: all.count) {
            case .blank:
                ended = true
                return endHead(framing, lines: UnsafeBufferPointer(start: base, count: start))
            case .invalid:
                state = .stopped
            case .taken, .incomplete:
                break
            }
            return nil
        }
        swap(&head, &buffer)
        if ended {
            clearLine()
        } else {
            lineStart = buffer.count
        }
        return (runEnd, event)
    }

    /// Reads a chunk-size or trailer line, which are short and rare enough to copy.
    private mutating func readBodyLine(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> (used: Int, event: Event?) {
        let lineFeed = Self.lineFeed(base, from: from, to: end)
        let runEnd = lineFeed ?? end
        buffer.append(contentsOf: UnsafeBufferPointer(start: base + from, count: runEnd - from))
        // An absurdly long chunk line: evhttp answers 400 and closes.
        if buffer.count > maxHeadBytes + 2 {
            state = .stopped
            return (runEnd, nil)
        }
        guard lineFeed != nil else { return (end, nil) }
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        defer { clearLine() }
        return (runEnd + 1, completeBodyLine())
    }

    /// Handles the chunk-size or trailer line in `buffer` (without its line ending).
    private mutating func completeBodyLine() -> Event? {
        switch state {
        case .chunkSize:
            // evhttp skips blank lines here: they are the CRLF that ends the previous chunk.
            if buffer.isEmpty { return nil }
            guard let size = Self.chunkSize(buffer), let head = chunkedHead else {
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
            if buffer.isEmpty { state = .head }
            return nil
        case .head, .fixedBody, .chunkData, .stopped:
            return nil
        }
    }

    private mutating func clearLine() {
        buffer.removeAll(keepingCapacity: true)
        lineStart = 0
    }

    /// The blank line that ends a head has been read; `framing` is what its lines said and
    /// `lines` are those lines, as they arrived. Decides what follows and readies the reader for
    /// the next head (its bytes must already be out of `buffer`, or be dropped from it by the
    /// caller).
    /// (`self.framing` and ``headBytes`` are left as they are: they only count while a head is
    /// spilled, and a spill sets them.)
    @inline(__always)
    private mutating func endHead(_ framing: HeadFraming, lines: UnsafeBufferPointer<UInt8>) -> Event? {
        // The usual request: a method evhttp knows and reads, no body, nothing to report.
        if reporting == .unknownMethods, framing.method == .readsBody, !framing.chunked, case .absent = framing.contentLength {
            state = .head
            return nil
        }
        guard framing.lines > 0 else {
            state = .stopped
            return nil
        }
        return beginBody(framing, lines)
    }

    /// Decides how the body after the completed head is framed, as evhttp 2.1 does, and what to
    /// report.
    @inline(never)
    private mutating func beginBody(_ framing: HeadFraming, _ lines: UnsafeBufferPointer<UInt8>) -> Event? {
        let method = framing.method
        let reportHead = reporting == .everyHead || method == .unknown
        // evhttp reads no body for HEAD, TRACE or methods it does not know. The transport takes the
        // body of an unknown method itself when it declared a length, so count those bytes too.
        guard method != .noBody else {
            state = .head
            return reportHead ? makeHead(framing, lines).map { .head($0) } : nil
        }
        if framing.chunked {
            guard method == .readsBody else {
                state = .stopped  // the server refuses it and closes the connection
                return makeHead(framing, lines).map { .head($0) }
            }
            chunkedHead = makeHead(framing, lines)
            chunkedTotal = 0
            state = .chunkSize
            return reportHead ? chunkedHead.map { .head($0) } : nil
        }
        let length: Int
        switch framing.contentLength {
        case .absent: length = 0
        case .value(let value): length = value
        case .invalid:
            state = .stopped
            return nil
        }
        if length > maxBodyBytes && method == .readsBody {
            state = .stopped
            return makeHead(framing, lines).map { .refused($0, reason: "request body of \(length) bytes exceeds the \(maxBodyBytes)-byte limit") }
        }
        state = length > 0 ? .fixedBody(remaining: length) : .head
        return reportHead ? makeHead(framing, lines).map { .head($0) } : nil
    }

    /// The head's lines (each with its line ending) as strings; only built for heads that are
    /// reported or kept.
    private func makeHead(_ framing: HeadFraming, _ bytes: UnsafeBufferPointer<UInt8>) -> RequestHead? {
        var lines: [UnsafeBufferPointer<UInt8>] = []
        guard let base = bytes.baseAddress else { return nil }
        var start = 0
        while let lineFeed = Self.lineFeed(base, from: start, to: bytes.count) {
            lines.append(HeadFraming.line(base, from: start, lineFeed: lineFeed))
            start = lineFeed + 1
        }
        guard let first = lines.first else { return nil }
        let parts = first.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3,
              let method = String(validating: parts[0], as: UTF8.self),
              let target = String(validating: parts[1], as: UTF8.self) else { return nil }
        var headers = HTTPHeaders()
        for raw in lines.dropFirst() {
            if raw.first == UInt8(ascii: " ") || raw.first == UInt8(ascii: "\t") {
                continue  // folded continuation: evhttp appends it to the previous value
            }
            guard let colon = raw.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let value = HeadFraming.trimmed(raw[(colon + 1)...])
            headers.append(name: String(decoding: raw[..<colon], as: UTF8.self), value: String(decoding: value, as: UTF8.self))
        }
        var declared: Int?
        if !framing.chunked, case .value(let value) = framing.contentLength { declared = value }
        return RequestHead(method: method, target: target, headers: headers, declaredLength: declared, chunked: framing.chunked)
    }

    /// Parses a chunk-size line the way evhttp does: hex digits, optionally followed by a space.
    private static func chunkSize(_ line: [UInt8]) -> Int? {
        let digits = line.prefix { $0 != UInt8(ascii: " ") }
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        var size = 0
        for digit in digits {
            guard let value = HeadFraming.hexValue(digit) else { return nil }
            size = size << 4 | value
        }
        return size
    }
}
