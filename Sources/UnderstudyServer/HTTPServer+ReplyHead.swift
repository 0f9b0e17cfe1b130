#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

// evhttp decides a reply's head (status line, `Date`, `Content-Length`, `Connection`, the keep-alive
// rules) and then formats it with one `evbuffer_add_printf` per line: ~1.8k instructions each,
// about a tenth of a keep-alive request. Here evhttp still decides everything, but the connection's
// output buffer is frozen while it does, so its printfs return at once (a frozen end refuses every
// add), and the head it settled on is written here, byte for byte as evhttp's format strings would
// (`HTTP/%d.%d %d %s\r\n`, `%s: %s\r\n` per field, `\r\n`), from the same fields. The journal
// entry is made from the same walk of those fields.
//
// A stub's own fields need not go through evhttp's list at all (adding one costs ~1.1k instructions:
// a validity scan, a calloc and two strdups, and as much again to free them): evhttp only reads
// `Date`, `Content-Length`, `Transfer-Encoding`, `Connection` and `Proxy-Connection` from it, and puts
// what it adds after what the caller added. So when a response has none of those and no byte that
// evhttp's `evhttp_add_header` would refuse (CR, LF, NUL), its fields are written first, straight
// from the response, and evhttp's list (`Date`, `Content-Length`, maybe `Connection: close`) after
// them: the same bytes in the same order.
extension HTTPServer {
    /// Sends `response` to `request` on `connection` and commits its journal entry: evhttp's
    /// `evhttp_send_reply` with the head written here (see above) and the body after it.
    /// Nothing reaches the socket before a later pass of the loop, so the entry is still written
    /// before the first byte.
    func reply(_ response: HTTPResponse, to request: OpaquePointer, journal: JournalTicket?, carriesBody: Bool,
               directFields: Bool, on connection: Connection) {
        guard let wire = bufferevent_get_output(connection.bufferevent) else { return }
        evbuffer_freeze(wire, 0)
        let reason = response.reason
        ReasonPhrase.withCString(response.status, reason: reason) { evhttp_send_reply(request, Int32(response.status), $0, nil) }
        evbuffer_unfreeze(wire, 0)
        let body = carriesBody ? response.body : []
        Self.withOutputFields(of: request, after: directFields && response.headers.count > 0 ? response.headers : nil) { fields in
            Self.writeHead(of: request, fields: fields, body: body, into: wire)
            if let reason { journal?.sentReason = reason }
            journal?.commit(.answered(status: response.status, rawHeaders: fields, body: body))
        }
    }

    /// Whether `headers` can be written without evhttp's list (see above): no field evhttp reads
    /// from the list, no byte it would refuse.
    static func writableDirectly(_ headers: HTTPHeaders) -> Bool {
        for field in headers {
            var name = field.name, value = field.value
            let writable = name.withUTF8 { name in
                !isReadByEvhttp(name) && !hasLineBreakOrNUL(name) && value.withUTF8 { !hasLineBreakOrNUL($0) }
            }
            if !writable { return false }
        }
        return true
    }

    /// Whether `name` is `Date`, `Connection`, `Content-Length` or `Proxy-Connection`, in any case.
    private static func isReadByEvhttp(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name.count {
        case 4: equalsIgnoringCase(name, "date")
        case 10: equalsIgnoringCase(name, "connection")
        case 14: equalsIgnoringCase(name, "content-length")
        case 16: equalsIgnoringCase(name, "proxy-connection")
        default: false
        }
    }

    /// Whether `bytes` spell `lowercase` (same length) in any ASCII case.
    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        let expected = lowercase.utf8Start
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0) != expected[index] { return false }
        }
        return true
    }

    private static func hasLineBreakOrNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte <= 0x0D && (byte == 0x0D || byte == 0x0A || byte == 0) { return true }
        return false
    }

    /// Bodies up to this size go into the same contiguous space as the head (one chunk, one TLS
    /// record); larger ones are added after it.
    static let inlineBodyLimit = 16_384

    /// Writes the head evhttp settled on for `request` (and a small body) into `wire`.
    static func writeHead(of request: OpaquePointer, fields: UnsafeBufferPointer<RawHeaderField>, body: [UInt8],
                          into wire: OpaquePointer) {
        let reason = evhttp_request_get_response_code_line(request).map { Self.bytes(UnsafeMutablePointer(mutating: $0)) }
            ?? UnsafeBufferPointer(start: nil, count: 0)
        var size = 5 + 11 + 1 + 11 + 1 + 11 + 1 + reason.count + 2 + 2  // "HTTP/" major "." minor " " code " " reason CRLF … CRLF
        for field in fields { size += field.name.count + field.value.count + 4 }
        let inline = body.count <= inlineBodyLimit
        if inline { size += body.count }
        var extent = iovec()
        guard evbuffer_reserve_space(wire, size, &extent, 1) >= 1, let base = extent.iov_base else { return }
        var out = base.assumingMemoryBound(to: UInt8.self)
        out = put(Int(understudy_request_major(request)), prefix: "HTTP/", at: out)
        out = put(Int(understudy_request_minor(request)), prefix: ".", at: out)
        out = put(Int(evhttp_request_get_response_code(request)), prefix: " ", at: out)
        out.pointee = UInt8(ascii: " "); out += 1
        out = put(reason, at: out)
        out = put(crlf: out)
        for field in fields {
            out = put(field.name, at: out)
            out[0] = UInt8(ascii: ":"); out[1] = UInt8(ascii: " "); out += 2
            out = put(field.value, at: out)
            out = put(crlf: out)
        }
        out = put(crlf: out)
        if inline { body.withUnsafeBufferPointer { out = put($0, at: out) } }
        extent.iov_len = base.assumingMemoryBound(to: UInt8.self).distance(to: out)
        evbuffer_commit_space(wire, &extent, 1)
        if !inline { body.withUnsafeBytes { _ = evbuffer_add(wire, $0.baseAddress, $0.count) } }
    }

    @inline(__always)
    private static func put(_ bytes: UnsafeBufferPointer<UInt8>, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        guard let source = bytes.baseAddress else { return out }
        out.update(from: source, count: bytes.count)
        return out + bytes.count
    }

    @inline(__always)
    private static func put(crlf out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        out[0] = UInt8(ascii: "\r"); out[1] = UInt8(ascii: "\n")
        return out + 2
    }

    /// `prefix` then `value` in decimal as printf's `%d` writes it (a `-` for negatives: evhttp
    /// keeps the request's version digits in a `char`).
    private static func put(_ value: Int, prefix: StaticString, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var out = out
        out.update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        out += prefix.utf8CodeUnitCount
        if value < 0 { out.pointee = UInt8(ascii: "-"); out += 1 }
        var magnitude = value.magnitude
        if magnitude < 10 {
            out.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
            return out + 1
        }
        var digits = 0
        var probe = magnitude
        while probe > 0 { digits += 1; probe /= 10 }
        var position = digits
        while magnitude > 0 {
            position -= 1
            out[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
        return out + digits
    }
}
