#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyCore

/// The HTTP/1.1 request decoder: bytes in, request events out (a complete request, a refusal, or
/// "more bytes needed"), with no socket and no libevent. It reads heads with ``RequestHeadParser``
/// and bodies by `Content-Length` or with ``ChunkedBodyReader`` (strict RFC 9112 framing,
/// `docs/transport.md`) from any ``HTTP1Input``: a ``Connection``'s bufferevent input, or an
/// array of bytes in the tests (`Tests/UnderstudyTransportTests`), which drive it byte for byte.
/// Its reply side is ``HTTP1ReplyEncoder``.
///
/// A value owned by its ``Connection``; generic over the input so each one gets its own
/// specialization (no dynamic dispatch on the request path).
struct HTTP1Codec {
    /// Where in a request the reader is.
    enum Phase {
        case head
        /// The rest of a `Content-Length` body.
        case body(remaining: Int)
        case chunked(ChunkedBodyReader)
        /// A refusal was sent: what the client still sends is read and dropped until it closes
        /// (or the linger time passes), so it sees the refusal rather than a reset.
        case lingering
    }

    /// What the reply to the request being answered needs to know about it.
    struct Exchange {
        var method: String = ""
        var target: String = ""
        var isHead = false
        var keepAlive = true
        /// 0 for HTTP/1.0.
        var minorVersion = 1
    }

    enum Arrival {
        case request(HTTPRequest)
        case refused(HTTPRefusal)
    }

    var head: RequestHeadParser
    var phase = Phase.head
    /// The request whose body is arriving (head read, body not yet whole).
    var arriving: HTTPRequest?
    var body: [UInt8] = []
    /// The request being answered: its reply's framing rules.
    var exchange = Exchange()
    /// The previous request's header fields, reused when the next one sends the same bytes.
    var headerCache = RequestHeaderBlockCache()
    /// The largest request body accepted (a larger one is refused with 413).
    let maxBodyBytes: Int
    /// Requests arrive over TLS (``HTTPRequest/isSecure``).
    let secure: Bool

    init(limits: RequestHeadParser.Limits, maxBodyBytes: Int, secure: Bool) {
        self.head = RequestHeadParser(limits: limits)
        self.maxBodyBytes = maxBodyBytes
        self.secure = secure
    }

    /// Whether part of a request has been read and the rest has not (`buffered` bytes wait).
    /// Static, on the phase alone: a method on the codec would copy the whole codec out of its
    /// connection for the call (~150 instructions and several retains, callgrind).
    static func isMidRequest(_ phase: Phase, buffered: Int) -> Bool {
        if case .head = phase { return buffered > 0 }
        return true
    }

    /// The next complete request in the input buffer, a refusal, or nil when more bytes are needed.
    mutating func nextRequest<Input: HTTP1Input>(from input: inout Input) -> Arrival? {
        while true {
            switch phase {
            case .head:
                let total = input.count
                guard total > 0 else { return nil }
                // The head is read in place in the buffer's first chunk (usually all of it); a head
                // that spans chunks is pulled up into one, only as far as the limits allow.
                var count = input.contiguousCount
                guard var base = input.pullup(count) else { return nil }
                var outcome = head.read(base, count: count)
                while case .incomplete = outcome {
                    let window = min(total, head.start + head.limits.maxRequestLine + head.limits.maxFieldBytes + 8)
                    guard count < window, let pulled = input.pullup(window) else { return nil }
                    base = pulled
                    count = window
                    outcome = head.read(base, count: count)
                }
                switch outcome {
                case .incomplete:
                    return nil
                case .refused(let refusal):
                    describeRefused(base)
                    return .refused(refusal)
                case .complete(let end):
                    switch beginRequest(base, end: end, input: &input) {
                    case .failure(let refusal):
                        return .refused(refusal)
                    case .success(let request):
                        input.drain(end)
                        if let complete = request { return .request(complete) }
                    }
                }
            case .body(let remaining):
                guard input.count >= remaining else { return nil }
                body = input.remove(remaining)
                phase = .head
                return completeRequest()
            case .chunked(var reader):
                let total = input.count
                guard total > 0 else { return nil }
                let count = min(total, max(input.contiguousCount, ChunkedBodyReader.maxLine + 2))
                guard let base = input.pullup(count) else { return nil }
                let step = reader.step(base, count: count)
                phase = .chunked(reader)
                switch step {
                case .needMore:
                    return nil
                case .framing(let length):
                    input.drain(length)
                case .data(let length):
                    if body.isEmpty { body.reserveCapacity(length) }
                    body.append(contentsOf: UnsafeBufferPointer(start: base, count: length))
                    input.drain(length)
                case .end(let length):
                    input.drain(length)
                    phase = .head
                    return completeRequest()
                case .refused(let refusal):
                    return .refused(refusal)
                }
            case .lingering:
                return nil
            }
        }
    }

    /// A complete head at `base[0..<end]`: the request it describes, with its body when it has
    /// none (`.success(nil)` when a body must be read first).
    private mutating func beginRequest<Input: HTTP1Input>(
        _ base: UnsafePointer<UInt8>, end: Int, input: inout Input
    ) -> Result<HTTPRequest?, HTTPRefusal> {
        let method = Self.method(base + head.start, count: head.methodEnd - head.start)
        guard
            let target = Self.utf8Text(
                UnsafeBufferPointer(start: base + head.targetStart, count: head.targetEnd - head.targetStart))
        else {
            exchange = Exchange(
                method: method, target: "", isHead: false, keepAlive: false, minorVersion: head.minorVersion)
            return .failure(.badRequest("the request target is not UTF-8 (RFC 3986 §2)"))
        }
        let headers = headerCache.headers(base, fieldsStart: head.fieldsStart, fields: head.fields, end: end)
        exchange = Exchange(
            method: method, target: target, isHead: head.methodEnd - head.start == 4 && method == "HEAD",
            keepAlive: head.keepAlive, minorVersion: head.minorVersion)
        var request = RequestTarget.request(method: method, target: target, headers: headers)
        if secure { request.isSecure = true }
        let framing = head.framing
        let expectsContinue = head.expectsContinue && head.minorVersion == 1
        head.reset()
        switch framing {
        case .none:
            return .success(request)
        case .length(let length):
            guard length <= maxBodyBytes else {
                arriving = request
                return .failure(
                    HTTPRefusal(
                        status: 413,
                        reason:
                            "the request body of \(length) bytes is larger than the \(maxBodyBytes)-byte limit"
                    ))
            }
            phase = .body(remaining: length)
            if expectsContinue && input.count < end + length {
                input.writeContinue()
            }
        case .chunked:
            phase = .chunked(ChunkedBodyReader(maxBody: maxBodyBytes, maxTrailerBytes: head.limits.maxFieldBytes))
            body = []
            if expectsContinue { input.writeContinue() }
        }
        arriving = request
        return .success(nil)
    }

    /// The method as a string: the common ones are literals, so they cost no UTF-8 decoding
    /// (~160 instructions a request, callgrind); any other token is decoded.
    static func method(_ bytes: UnsafePointer<UInt8>, count: Int) -> String {
        func matches(_ name: StaticString) -> Bool {
            memcmp(bytes, name.utf8Start, count) == 0
        }
        switch count {
        case 3:
            if bytes[0] == UInt8(ascii: "G") && bytes[1] == UInt8(ascii: "E") && bytes[2] == UInt8(ascii: "T") {
                return "GET"
            }
            if matches("PUT") { return "PUT" }
        case 4:
            if matches("POST") { return "POST" }
            if matches("HEAD") { return "HEAD" }
        case 5:
            if matches("PATCH") { return "PATCH" }
        case 6:
            if matches("DELETE") { return "DELETE" }
        case 7:
            if matches("OPTIONS") { return "OPTIONS" }
        default:
            break
        }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The bytes as a string, nil when they are not UTF-8. An ASCII target (nearly all) skips
    /// `String(validating:)`, which is generic over the encoding: ~1 500 instructions a request with
    /// its metadata lookups, 8 % of a keep-alive request (callgrind).
    static func utf8Text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var high: UInt8 = 0
        for byte in bytes { high |= byte }
        if high < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The arriving request with its body.
    private mutating func completeRequest() -> Arrival {
        var request = arriving ?? HTTPRequest(method: exchange.method, target: exchange.target)
        arriving = nil
        request.body = body
        body = []
        return .request(request)
    }

    /// What a refused head let us read, for the journal: its method and target when they were
    /// read (the version after them may be what was refused).
    private mutating func describeRefused(_ base: UnsafePointer<UInt8>) {
        if head.requestLineRead || head.targetRead {
            let method = RequestHeadParser.text(base, from: head.start, to: head.methodEnd)
            let target = RequestHeadParser.text(base, from: head.targetStart, to: head.targetEnd)
            exchange = Exchange(
                method: method, target: target, isHead: false, keepAlive: false, minorVersion: head.minorVersion)
            arriving = RequestTarget.request(
                method: method, target: target, headers: RequestHeaderBlockCache.fields(base, head.fields))
        } else {
            exchange = Exchange()
            arriving = nil
        }
    }

    /// The request being refused, as far as it was read. When not even its request line was
    /// (bytes that are no request at all), its method and path are empty: the refusal is answered,
    /// so it is journaled all the same (every answered request is in the journal exactly once).
    mutating func takeRefusedRequest() -> HTTPRequest {
        defer { arriving = nil }
        var request = arriving ?? HTTPRequest(method: "", path: "")
        if secure { request.isSecure = true }
        return request
    }
}

/// Where an ``HTTP1Codec`` reads bytes from: a libevent buffer on a live connection, an array in
/// the tests. Pointers it returns stay valid until the next drain or remove.
protocol HTTP1Input {
    /// Bytes buffered.
    var count: Int { get }
    /// Bytes in the first contiguous piece (all of them, for an array).
    var contiguousCount: Int { get }
    /// The first `count` bytes made contiguous; nil when that fails.
    mutating func pullup(_ count: Int) -> UnsafeMutablePointer<UInt8>?
    /// Drops the first `count` bytes.
    mutating func drain(_ count: Int)
    /// Takes the first `count` bytes.
    mutating func remove(_ count: Int) -> [UInt8]
    /// RFC 9110 §10.1.1: a client that sent `Expect: 100-continue` waits for this before its body.
    mutating func writeContinue()
}
