#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

// The reply writer: a response's head goes straight into the bufferevent's output, in one
// reserved extent (with the body when it is small), and the journal entry is committed from the
// bytes just written, before they are committed to the buffer: nothing of the reply can reach the
// socket before its entry is written.
//
// The head: `HTTP/1.1 status reason`, the response's own fields in order (never its
// `Transfer-Encoding`: the transport frames the body, in one chunk when a stub's header asks for
// chunks), then a `Date` and a `Content-Length` unless
// it has them (no `Content-Length` for HEAD, 1xx, 204 and 304, RFC 9110 §8.6), then
// `Connection: close` when the connection closes after it, or `Connection: keep-alive` for an
// HTTP/1.0 client that asked to keep it (RFC 9112 §9.3).
extension Connection {
    /// How the body after a head is framed.
    enum BodyFraming {
        /// The whole body now, with a Content-Length.
        case content
        /// A paced body of known length: Content-Length now, the bytes later.
        case length(Int)
        /// A paced body in chunks (RFC 9112 §7.1).
        case chunked
    }

    /// Bodies up to this size go into the same extent as the head (one chunk, one TLS record);
    /// larger ones are added after it.
    static let inlineBodyLimit = 16_384

    /// Writes `response` for the request being answered and commits its journal entry; the
    /// connection closes after it when it must. Counts as queued until the output is flushed.
    /// With `refusal`, the entry's outcome is `refused` with that reason.
    func writeReply(_ response: HTTPResponse, journal: JournalTicket?, closeAfter: Bool, refusal: String? = nil) {
        let closing = writeHead(response, framing: .content, closeAfter: closeAfter, journal: journal, refusal: refusal)
            .closing
        queued += 1
        if closing { closeAfterFlush() }
    }

    /// Writes the head of a paced body; returns whether its pieces are to be chunked and whether
    /// the connection closes after it.
    func writeStreamHead(_ response: HTTPResponse, chunked: Bool, closeAfter: Bool, journal: JournalTicket?) -> (
        chunked: Bool, closing: Bool
    ) {
        let framing: BodyFraming = chunked ? .chunked : .length(response.body.count)
        let written = writeHead(response, framing: framing, closeAfter: closeAfter, journal: journal)
        return (written.chunked, written.closing)
    }

    /// One piece of a paced body.
    func writePiece(_ bytes: [UInt8], chunked: Bool) {
        guard !bytes.isEmpty, !closed else { return }
        let output = bufferevent_get_output(bufferevent)
        if chunked {
            var line = String(bytes.count, radix: 16)
            line += "\r\n"
            line.withUTF8 { _ = evbuffer_add(output, $0.baseAddress, $0.count) }
        }
        bytes.withUnsafeBytes { _ = evbuffer_add(output, $0.baseAddress, $0.count) }
        if chunked { _ = evbuffer_add(output, "\r\n", 2) }
    }

    /// Ends a paced body (the last chunk when chunked).
    func endStream(chunked: Bool) {
        guard !closed else { return }
        if chunked { _ = evbuffer_add(bufferevent_get_output(bufferevent), "0\r\n\r\n", 5) }
    }

    /// Writes a head (and, for `.content`, the body) into the output and commits the journal
    /// entry from the bytes written.
    private func writeHead(
        _ response: HTTPResponse, framing: BodyFraming, closeAfter: Bool,
        journal: JournalTicket?, refusal: String? = nil
    ) -> (chunked: Bool, closing: Bool) {
        let status = min(max(response.status, 100), 999)
        let carriesBody = !codec.exchange.isHead && status >= 200 && status != 204 && status != 304
        var closing = closeAfter || !codec.exchange.keepAlive || (server?.lifecycle.draining ?? true)
        var chunked = false
        if case .chunked = framing, carriesBody {
            // An HTTP/1.0 client cannot read chunks: the body ends when the connection closes.
            if codec.exchange.minorVersion == 1 { chunked = true } else { closing = true }
        }
        let streaming: Bool
        if case .content = framing { streaming = false } else { streaming = true }
        let headers = response.headers
        var hasDate = false, hasLength = false, hasConnection = false
        var fieldBytes = 0, fieldCount = 0
        for field in headers {
            let name = field.name.utf8.count
            switch name {
            case 4 where HTTPHeaders.namesMatch(field.name, "Date"):
                hasDate = true
            case 10 where HTTPHeaders.namesMatch(field.name, "Connection"):
                hasConnection = true
                if Self.containsClose(field.value) { closing = true }
            case 14 where HTTPHeaders.namesMatch(field.name, "Content-Length"):
                if streaming { continue }
                hasLength = true
            case 17 where HTTPHeaders.namesMatch(field.name, "Transfer-Encoding"):
                // A stub asking for chunks gets them (WireMock honours the header): one chunk.
                if case .content = framing, carriesBody, codec.exchange.minorVersion == 1,
                    field.value.lowercased().contains("chunked")
                {
                    chunked = true
                }
                continue
            default:
                break
            }
            fieldBytes += name + field.value.utf8.count + 4
            fieldCount += 1
        }
        let body = carriesBody && !streaming ? response.body : []
        let inline = body.count <= Self.inlineBodyLimit && !(chunked && !streaming)
        let customReason = response.reason
        let reasonBytes = customReason?.utf8.count ?? ReasonPhrase.staticPhrase(status).utf8CodeUnitCount
        let size = 13 + reasonBytes + 2 + fieldBytes + 37 + 38 + 28 + 2 + (inline ? body.count : 0)
        let output = bufferevent_get_output(bufferevent)
        var extent = iovec()
        guard evbuffer_reserve_space(output, size, &extent, 1) >= 1, let start = extent.iov_base else {
            journal?.commit(.clientGone)
            return (chunked, true)
        }
        var writer = ByteWriter(start.assumingMemoryBound(to: UInt8.self))
        writer.put("HTTP/1.1 ")
        writer.putStatus(status)
        writer.put(" ")
        if let customReason {
            _ = writer.put(string: customReason)
        } else {
            writer.put(ReasonPhrase.staticPhrase(status))
        }
        writer.put("\r\n")
        withUnsafeTemporaryAllocation(of: RawHeaderField.self, capacity: fieldCount + 3) { raw in
            var filled = 0
            for field in headers {
                switch field.name.utf8.count {
                case 10 where closing && HTTPHeaders.namesMatch(field.name, "Connection"):
                    continue  // replaced by `Connection: close` below
                case 14 where (streaming || chunked) && HTTPHeaders.namesMatch(field.name, "Content-Length"):
                    continue
                case 17 where HTTPHeaders.namesMatch(field.name, "Transfer-Encoding"):
                    continue
                default:
                    break
                }
                let name = writer.put(string: field.name)
                writer.put(": ")
                let value = writer.put(string: field.value)
                writer.put("\r\n")
                raw.initializeElement(at: filled, to: RawHeaderField(name: name, value: value))
                filled += 1
            }
            if !hasDate, let server {
                let name = writer.put("Date")
                writer.put(": ")
                let value = server.table.dateHeader.withCurrentValue { writer.put(cString: $0) }
                writer.put("\r\n")
                raw.initializeElement(at: filled, to: RawHeaderField(name: name, value: value))
                filled += 1
            }
            var framingField: (StaticString, Int?)?
            switch framing {
            case .content where chunked: framingField = ("Transfer-Encoding", nil)
            case .content where carriesBody && !hasLength: framingField = ("Content-Length", body.count)
            case .length(let length) where carriesBody: framingField = ("Content-Length", length)
            case .chunked where chunked: framingField = ("Transfer-Encoding", nil)
            default: break
            }
            if let (fieldName, length) = framingField {
                let name = writer.put(fieldName)
                writer.put(": ")
                let value = length.map { writer.putDecimal($0) } ?? writer.put("chunked")
                writer.put("\r\n")
                raw.initializeElement(at: filled, to: RawHeaderField(name: name, value: value))
                filled += 1
            }
            if closing || (codec.exchange.minorVersion == 0 && !hasConnection) {
                let name = writer.put("Connection")
                writer.put(": ")
                let value = closing ? writer.put("close") : writer.put("keep-alive")
                writer.put("\r\n")
                raw.initializeElement(at: filled, to: RawHeaderField(name: name, value: value))
                filled += 1
            }
            writer.put("\r\n")
            if inline && !body.isEmpty { _ = body.withUnsafeBufferPointer { writer.put($0) } }
            defer { raw.baseAddress?.deinitialize(count: filled) }
            // The entry first: nothing of this reply is in the buffer until the commit below.
            if let journal {
                let fields = UnsafeBufferPointer(rebasing: raw[..<filled])
                // A stub's own phrase is journaled (`response.reason`); the standard one is implied.
                if let customReason { journal.sentReason = customReason }
                if let refusal {
                    journal.commit(.refused(status: status, rawHeaders: fields, body: body, reason: refusal))
                } else {
                    journal.commit(.answered(status: status, rawHeaders: fields, body: body))
                }
            }
        }
        extent.iov_len = writer.count(from: start.assumingMemoryBound(to: UInt8.self))
        evbuffer_commit_space(output, &extent, 1)
        if chunked && !streaming {  // the whole body as one chunk, then the last chunk
            writePiece(body, chunked: true)
            endStream(chunked: true)
        } else if !inline {
            body.withUnsafeBytes { _ = evbuffer_add(output, $0.baseAddress, $0.count) }
        }
        return (chunked, closing)
    }

    /// Whether a `Connection` value lists `close`.
    private static func containsClose(_ value: String) -> Bool {
        for option in value.utf8.split(separator: UInt8(ascii: ",")) {
            let trimmed = option.drop { $0 == 0x20 || $0 == 0x09 }
            if trimmed.count >= 5, trimmed.prefix(5).elementsEqual("close".utf8, by: { $0 | 0x20 == $1 }),
                trimmed.dropFirst(5).allSatisfy({ $0 == 0x20 || $0 == 0x09 })
            {
                return true
            }
        }
        return false
    }
}

/// Writes bytes forward from a pointer into space reserved for them; each `put` returns the
/// bytes it wrote, for the journal's raw fields.
struct ByteWriter {
    private(set) var out: UnsafeMutablePointer<UInt8>

    init(_ out: UnsafeMutablePointer<UInt8>) {
        self.out = out
    }

    func count(from start: UnsafeMutablePointer<UInt8>) -> Int {
        start.distance(to: out)
    }

    @discardableResult
    mutating func put(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A string's UTF-8. Labelled so that a literal (`put(": ")`) is a `StaticString`, copied
    /// straight from the binary: as an unlabelled overload it took the literals, and each one
    /// was made a `String` and read through `withUTF8` (~90 instructions, nine a reply).
    @discardableResult
    mutating func put(string text: String) -> UnsafeBufferPointer<UInt8> {
        var text = text
        return text.withUTF8 { put($0) }
    }

    mutating func put(cString: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8> {
        put(
            UnsafeBufferPointer(
                start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: strlen(cString)))
    }

    @discardableResult
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let start = out
        if let source = bytes.baseAddress { out.update(from: source, count: bytes.count) }
        out += bytes.count
        return UnsafeBufferPointer(start: start, count: bytes.count)
    }

    /// A three-digit status.
    mutating func putStatus(_ status: Int) {
        out[0] = UInt8(truncatingIfNeeded: status / 100) &+ 0x30
        out[1] = UInt8(truncatingIfNeeded: status / 10 % 10) &+ 0x30
        out[2] = UInt8(truncatingIfNeeded: status % 10) &+ 0x30
        out += 3
    }

    /// A non-negative integer in decimal.
    mutating func putDecimal(_ value: Int) -> UnsafeBufferPointer<UInt8> {
        let start = out
        var magnitude = max(0, value)
        var digits = 1
        var probe = magnitude
        while probe >= 10 {
            digits += 1
            probe /= 10
        }
        var position = digits
        repeat {
            position -= 1
            out[position] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
            magnitude /= 10
        } while magnitude > 0
        out += digits
        return UnsafeBufferPointer(start: start, count: digits)
    }
}
