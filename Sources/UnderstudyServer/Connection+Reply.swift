#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

// The reply writer on a live connection: the codec (`HTTP1Codec+Reply.swift`) writes the head
// straight into the bufferevent's output, in one reserved extent (with the body when it is small),
// and the journal entry is committed from the bytes just written, before they are committed to the
// buffer: nothing of the reply can reach the socket before its entry is written.
extension Connection {
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
        let framing: HTTP1Codec.BodyFraming = chunked ? .chunked : .length(response.body.count)
        return writeHead(response, framing: framing, closeAfter: closeAfter, journal: journal)
    }

    /// One piece of a paced body.
    func writePiece(_ bytes: [UInt8], chunked: Bool) {
        guard !bytes.isEmpty, !closed else { return }
        var output = EvbufferOutput(bufferevent)
        HTTP1Codec.writePiece(bytes, chunked: chunked, into: &output)
    }

    /// Ends a paced body (the last chunk when chunked).
    func endStream(chunked: Bool) {
        guard !closed, chunked else { return }
        var output = EvbufferOutput(bufferevent)
        HTTP1Codec.writeLastChunk(into: &output)
    }

    /// Writes a head (and, for `.content`, the body) into the output with the codec and commits
    /// the journal entry from the bytes written, before they are committed to the buffer. Returns
    /// whether the body is chunked and whether the connection closes after it. Never inlined: it
    /// holds the codec's whole writer, and its two callers (a reply and a paced body's head) share it.
    @inline(never)
    private func writeHead(
        _ response: HTTPResponse, framing: HTTP1Codec.BodyFraming, closeAfter: Bool,
        journal: JournalTicket?, refusal: String? = nil
    ) -> (chunked: Bool, closing: Bool) {
        // A connection's server is gone only once it has closed (and freed its buffers).
        guard let server else {
            journal?.commit(.clientGone)
            return (false, true)
        }
        var output = EvbufferOutput(bufferevent)
        var entry = JournalCommit(journal: journal, refusal: refusal)
        let written = codec.writeHead(
            response, framing: framing, closeAfter: closeAfter, draining: server.lifecycle.draining,
            date: &server.table.dateHeader, into: &output, recorder: &entry)
        guard let written else {
            journal?.commit(.clientGone)
            return (false, true)
        }
        return written
    }
}

/// The journal entry of a reply, committed from the head the codec has just written, before the
/// head is committed to the buffer: nothing of the reply can reach the socket before its entry.
struct JournalCommit: HTTP1ReplyRecorder {
    let journal: JournalTicket?
    /// The refusal's reason, when the reply refuses the request (the entry's outcome is `refused`).
    let refusal: String?

    func record(status: Int, reason: String?, fields: UnsafeBufferPointer<RawHeaderField>, body: [UInt8]) {
        guard let journal else { return }
        // A stub's own phrase is journaled (`response.reason`); the standard one is implied.
        if let reason { journal.sentReason = reason }
        if let refusal {
            journal.commit(.refused(status: status, rawHeaders: fields, body: body, reason: refusal))
        } else {
            journal.commit(.answered(status: status, rawHeaders: fields, body: body))
        }
    }
}

/// A ``Connection``'s libevent output as the codec's ``HTTP1Output``: a head is written into one
/// reserved extent of the buffer and committed at once.
struct EvbufferOutput: HTTP1Output {
    let buffer: OpaquePointer?
    private var extent = iovec()

    init(_ bufferevent: OpaquePointer) {
        buffer = bufferevent_get_output(bufferevent)
    }

    mutating func reserve(_ size: Int) -> UnsafeMutablePointer<UInt8>? {
        guard evbuffer_reserve_space(buffer, size, &extent, 1) >= 1, let start = extent.iov_base else { return nil }
        return start.assumingMemoryBound(to: UInt8.self)
    }

    mutating func commit(_ count: Int) {
        extent.iov_len = count
        evbuffer_commit_space(buffer, &extent, 1)
    }

    func add(_ bytes: UnsafeRawBufferPointer) {
        _ = evbuffer_add(buffer, bytes.baseAddress, bytes.count)
    }
}

/// Writes bytes forward from a pointer into space reserved for them; each `put` returns the
/// bytes it wrote, for the journal's raw fields. The small `put`s are always inlined: in the
/// codec's generic writer they were otherwise calls (~90 instructions a reply, callgrind).
struct ByteWriter {
    private(set) var out: UnsafeMutablePointer<UInt8>

    init(_ out: UnsafeMutablePointer<UInt8>) {
        self.out = out
    }

    func count(from start: UnsafeMutablePointer<UInt8>) -> Int {
        start.distance(to: out)
    }

    @discardableResult
    @inline(__always)
    mutating func put(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A string's UTF-8. Labelled so that a literal (`put(": ")`) is a `StaticString`, copied
    /// straight from the binary: as an unlabelled overload it took the literals, and each one
    /// was made a `String` and read through `withUTF8` (~90 instructions, nine a reply).
    @discardableResult
    @inline(__always)
    mutating func put(string text: String) -> UnsafeBufferPointer<UInt8> {
        var text = text
        return text.withUTF8 { put($0) }
    }

    @inline(__always)
    mutating func put(cString: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8> {
        put(
            UnsafeBufferPointer(
                start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: strlen(cString)))
    }

    @discardableResult
    @inline(__always)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let start = out
        if let source = bytes.baseAddress { out.update(from: source, count: bytes.count) }
        out += bytes.count
        return UnsafeBufferPointer(start: start, count: bytes.count)
    }

    /// A three-digit status.
    @inline(__always)
    mutating func putStatus(_ status: Int) {
        out[0] = UInt8(truncatingIfNeeded: status / 100) &+ 0x30
        out[1] = UInt8(truncatingIfNeeded: status / 10 % 10) &+ 0x30
        out[2] = UInt8(truncatingIfNeeded: status % 10) &+ 0x30
        out += 3
    }

    /// A non-negative integer in decimal.
    @inline(__always)
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
