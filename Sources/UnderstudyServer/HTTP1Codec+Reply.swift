#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyCore

// The codec's reply side: a response's head goes into one reserved extent of the output (with the
// body when it is small), and the caller's recorder (the journal entry, on a live connection) sees
// the bytes just written before they are committed: nothing of the reply can reach the socket
// before its entry is written.
//
// The head: `HTTP/1.1 status reason`, the response's own fields in order (never its
// `Transfer-Encoding`: the transport frames the body, in one chunk when a stub's header asks for
// chunks), then a `Date` and a `Content-Length` unless it has them (no `Content-Length` for HEAD,
// 1xx, 204 and 304, RFC 9110 §8.6), then `Connection: close` when the connection closes after it,
// or `Connection: keep-alive` for an HTTP/1.0 client that asked to keep it (RFC 9112 §9.3).
extension HTTP1Codec {
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

    /// Writes a reply's head (and, for `.content`, the body) for the request in ``exchange`` into
    /// `output`, and hands `recorder` the status, the stub's own reason phrase (nil for the standard
    /// one), the header fields and the body exactly as written, before they are committed to the
    /// output. `date` is the cached `Date` value, sent unless the response has its own. Returns
    /// whether the body is chunked and whether the connection closes after it; nil when the output
    /// had no room (nothing was written).
    ///
    /// `mutating` though it changes nothing: called on a connection's codec, a non-mutating method
    /// would copy the whole codec out of the connection first (callgrind: ~160 instructions and
    /// several retains a reply); a mutating one works on it in place. Always inlined into its
    /// caller. The recorder is a generic value rather than a closure so that its call is static
    /// and inlined (a closure here stayed a call: ~45 instructions a reply, callgrind).
    @inline(__always)
    mutating func writeHead<Output: HTTP1Output>(
        _ response: HTTPResponse, framing: BodyFraming, closeAfter: Bool, draining: Bool,
        date: inout DateHeader, into output: inout Output,
        recorder: inout some HTTP1ReplyRecorder
    ) -> (chunked: Bool, closing: Bool)? {
        let status = min(max(response.status, 100), 999)
        let carriesBody = !exchange.isHead && status >= 200 && status != 204 && status != 304
        var closing = closeAfter || !exchange.keepAlive || draining
        var chunked = false
        if case .chunked = framing, carriesBody {
            // An HTTP/1.0 client cannot read chunks: the body ends when the connection closes.
            if exchange.minorVersion == 1 { chunked = true } else { closing = true }
        }
        let streaming: Bool
        if case .content = framing { streaming = false } else { streaming = true }
        // The fields are read in place (`headers[index].name`): iterating copied each field out,
        // retaining and releasing its name and value when they are not small strings (an idempotent
        // replay's `Idempotent-Replayed`: ~170 instructions a reply, `scripts/bench --replay`).
        let headers = response.headers.fields
        var hasDate = false, hasLength = false, hasConnection = false
        var fieldBytes = 0, fieldCount = 0
        for index in headers.indices {
            let name = headers[index].name.utf8.count
            switch name {
            case 4 where HTTPHeaders.namesMatch(headers[index].name, "Date"):
                hasDate = true
            case 10 where HTTPHeaders.namesMatch(headers[index].name, "Connection"):
                hasConnection = true
                if Self.containsClose(headers[index].value) { closing = true }
            case 14 where HTTPHeaders.namesMatch(headers[index].name, "Content-Length"):
                if streaming { continue }
                hasLength = true
            case 17 where HTTPHeaders.namesMatch(headers[index].name, "Transfer-Encoding"):
                // A stub asking for chunks gets them (WireMock honours the header): one chunk.
                if case .content = framing, carriesBody, exchange.minorVersion == 1,
                    headers[index].value.lowercased().contains("chunked")
                {
                    chunked = true
                }
                continue
            default:
                break
            }
            fieldBytes += name + headers[index].value.utf8.count + 4
            fieldCount += 1
        }
        let body = carriesBody && !streaming ? response.body : []
        let inline = body.count <= Self.inlineBodyLimit && !(chunked && !streaming)
        let customReason = response.reason
        let reasonBytes = customReason?.utf8.count ?? ReasonPhrase.staticPhrase(status).utf8CodeUnitCount
        let size = 13 + reasonBytes + 2 + fieldBytes + 37 + 38 + 28 + 2 + (inline ? body.count : 0)
        guard let start = output.reserve(size) else { return nil }
        var writer = ByteWriter(start)
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
            for index in headers.indices {
                switch headers[index].name.utf8.count {
                case 10 where closing && HTTPHeaders.namesMatch(headers[index].name, "Connection"):
                    continue  // replaced by `Connection: close` below
                case 14 where (streaming || chunked) && HTTPHeaders.namesMatch(headers[index].name, "Content-Length"):
                    continue
                case 17 where HTTPHeaders.namesMatch(headers[index].name, "Transfer-Encoding"):
                    continue
                default:
                    break
                }
                let name = writer.put(string: headers[index].name)
                writer.put(": ")
                let value = writer.put(string: headers[index].value)
                writer.put("\r\n")
                raw.initializeElement(at: filled, to: RawHeaderField(name: name, value: value))
                filled += 1
            }
            if !hasDate {
                let name = writer.put("Date")
                writer.put(": ")
                let value = date.withCurrentValue { writer.put(cString: $0) }
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
            if closing || (exchange.minorVersion == 0 && !hasConnection) {
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
            // The record first: nothing of this reply is in the output until the commit below.
            recorder.record(
                status: status, reason: customReason, fields: UnsafeBufferPointer(rebasing: raw[..<filled]), body: body)
        }
        output.commit(writer.count(from: start))
        if chunked && !streaming {  // the whole body as one chunk, then the last chunk
            Self.writePiece(body, chunked: true, into: &output)
            Self.writeLastChunk(into: &output)
        } else if !inline {
            body.withUnsafeBytes { output.add($0) }
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

    /// One piece of a paced body (a chunk when `chunked`, RFC 9112 §7.1).
    static func writePiece<Output: HTTP1Output>(_ bytes: [UInt8], chunked: Bool, into output: inout Output) {
        if chunked {
            var line = String(bytes.count, radix: 16)
            line += "\r\n"
            line.withUTF8 { output.add(UnsafeRawBufferPointer($0)) }
        }
        bytes.withUnsafeBytes { output.add($0) }
        if chunked { output.add(UnsafeRawBufferPointer(start: Self.crlf.utf8Start, count: 2)) }
    }

    /// The last chunk of a chunked body, with no trailer.
    static func writeLastChunk<Output: HTTP1Output>(into output: inout Output) {
        output.add(UnsafeRawBufferPointer(start: Self.lastChunk.utf8Start, count: Self.lastChunk.utf8CodeUnitCount))
    }

    private static let crlf: StaticString = "\r\n"
    private static let lastChunk: StaticString = "0\r\n\r\n"
}

/// Who learns what a reply's head said, exactly as written and before it is committed to the
/// output: the journal on a live connection (``Connection``), the tests' capture otherwise.
protocol HTTP1ReplyRecorder {
    /// `status` and `fields` as written, the stub's own reason phrase (nil for the standard one),
    /// and the body sent with the head (empty for a paced body, HEAD, 204 and 304). The fields'
    /// bytes are valid only during the call.
    mutating func record(status: Int, reason: String?, fields: UnsafeBufferPointer<RawHeaderField>, body: [UInt8])
}

/// Where an ``HTTP1Codec`` writes a reply: a libevent buffer on a live connection, an array in
/// the tests.
protocol HTTP1Output {
    /// Room for `size` bytes written forward from the pointer; nil when there is none.
    mutating func reserve(_ size: Int) -> UnsafeMutablePointer<UInt8>?
    /// The first `count` bytes of the reserved room are the output's.
    mutating func commit(_ count: Int)
    /// Appends `bytes`.
    mutating func add(_ bytes: UnsafeRawBufferPointer)
}
