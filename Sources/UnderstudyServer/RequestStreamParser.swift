#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyCore

/// Follows the framing of the request byte stream on one connection, exactly as libevent 2.1
/// frames it, without holding on to body bytes.
///
/// It exists because evhttp drops what the transport needs to journal some requests (see
/// ``RequestHead``). It mirrors libevent's rules rather than the RFC's, so that its idea of where
/// each request starts stays in step with evhttp's; when the stream is something evhttp will
/// refuse as malformed, it stops (evhttp answers 400 and closes the connection).
///
/// It runs on every byte the server reads, so the common path is a scan: lines are found with a
/// byte search and copied in runs into one reused buffer, and a head is only turned into a
/// ``RequestHead`` (strings, header list) when it is reported (see ``Reporting``).
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
    /// In the head state: the head's complete lines, each without its CR and followed by `\n`,
    /// then the line being read. Otherwise the chunk-size or trailer line being read. Reused.
    private var buffer: [UInt8] = []
    /// Where the line being read starts in `buffer`.
    private var lineStart = 0
    /// Bytes of the current head seen so far, line ends excepted (as evhttp counts them).
    private var headBytes = 0
    /// What the current head's lines said so far.
    private var framing = HeadFraming()
    private var chunkedHead: RequestHead?
    private var chunkedTotal = 0

    init(maxBodyBytes: Int, maxHeadBytes: Int, reporting: Reporting = .everyHead) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeadBytes = maxHeadBytes
        self.reporting = reporting
        buffer.reserveCapacity(512)
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
            let rest = UnsafeRawBufferPointer(rebasing: bytes[used...])
            let start = rest.baseAddress!  // not empty: used < bytes.count
            let newline = memchr(start, Int32(UInt8(ascii: "\n")), rest.count).map { UnsafeRawPointer($0) - start }
            let run = UnsafeRawBufferPointer(rebasing: rest[..<(newline ?? rest.count)])
            buffer.append(contentsOf: run)
            used += run.count
            if case .head = state { headBytes += run.count }
            // Past the header limit (or an absurd chunk line) evhttp answers 400 and closes.
            if headBytes > maxHeadBytes + 2 || buffer.count - lineStart > maxHeadBytes + 2 {
                state = .stopped
                break
            }
            guard newline != nil else { break }
            used += 1
            if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
            if let event = completeLine() { events.append(event) }
        }
        return (used, events)
    }

    /// Handles the line that ends `buffer` (from `lineStart`, without its line ending).
    private mutating func completeLine() -> Event? {
        let lineLength = buffer.count - lineStart
        switch state {
        case .head:
            if lineLength > 0 {
                var framing = self.framing
                let start = lineStart
                let valid = buffer.withUnsafeBufferPointer { framing.take(line: UnsafeBufferPointer(rebasing: $0[start...])) }
                self.framing = framing
                if !valid {
                    state = .stopped
                    return nil
                }
                buffer.append(UInt8(ascii: "\n"))
                lineStart = buffer.count
                return nil
            }
            defer { startHead() }
            guard framing.lines > 0 else {
                state = .stopped
                return nil
            }
            return beginBody()
        case .chunkSize:
            defer { clearLine() }
            // evhttp skips blank lines here: they are the CRLF that ends the previous chunk.
            if lineLength == 0 { return nil }
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
            clearLine()
            if lineLength == 0 {
                state = .head
                headBytes = 0
            }
            return nil
        case .fixedBody, .chunkData, .stopped:
            return nil
        }
    }

    private mutating func clearLine() {
        buffer.removeAll(keepingCapacity: true)
        lineStart = 0
    }

    private mutating func startHead() {
        clearLine()
        headBytes = 0
        framing = HeadFraming()
    }

    /// Decides how the body after the completed head is framed, as evhttp 2.1 does, and what to
    /// report. `buffer` still holds the head.
    private mutating func beginBody() -> Event? {
        let method = framing.method
        let reportHead = reporting == .everyHead || method == .unknown
        // evhttp reads no body for HEAD, TRACE or methods it does not know. The transport takes the
        // body of an unknown method itself when it declared a length, so count those bytes too.
        guard method != .noBody else {
            state = .head
            return reportHead ? makeHead().map { .head($0) } : nil
        }
        if framing.chunked {
            guard method == .readsBody else {
                state = .stopped  // the server refuses it and closes the connection
                return makeHead().map { .head($0) }
            }
            chunkedHead = makeHead()
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
            return makeHead().map { .refused($0, reason: "request body of \(length) bytes exceeds the \(maxBodyBytes)-byte limit") }
        }
        state = length > 0 ? .fixedBody(remaining: length) : .head
        return reportHead ? makeHead().map { .head($0) } : nil
    }

    /// The head in `buffer` as strings; only built for heads that are reported or kept.
    private func makeHead() -> RequestHead? {
        var lines = buffer.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
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
