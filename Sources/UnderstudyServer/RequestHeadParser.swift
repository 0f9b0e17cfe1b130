/// Reads an HTTP/1.1 request head (request line and field lines, RFC 9112 §2–§5) from a
/// contiguous byte buffer that grows as bytes arrive, and decides how the body is framed (§6).
///
/// It is the transport's only parser. It is strict where a lenient reading lets two parties
/// disagree about where a request ends (request smuggling, RFC 9112 §11.2): everything it cannot
/// read exactly is refused with an ``HTTPRefusal`` naming the rule, never guessed at. The rules,
/// with their sections, are listed in `docs/transport.md`.
///
/// The parser is resumable: bytes already read are not read again when more arrive (a head
/// trickled a byte at a time costs the same as one read whole). It keeps offsets into the
/// buffer, never pointers, so the caller may move the bytes (an evbuffer pull-up) between calls
/// as long as their offsets stay the same. Nothing is allocated while a head is read; the
/// field offsets go into an array whose storage is kept from request to request.
struct RequestHeadParser {
    /// Limits; each one exceeded gives its own status.
    struct Limits {
        /// The longest request line (414 URI Too Long past it).
        var maxRequestLine: Int
        /// The most bytes of field lines (431 past it).
        var maxFieldBytes: Int
        /// The most field lines (431 past it).
        var maxFields: Int
    }

    /// One field line: offsets of its name and of its value (without surrounding whitespace).
    struct FieldRange {
        var nameStart: Int32
        var nameEnd: Int32
        var valueStart: Int32
        var valueEnd: Int32
    }

    /// What ``read(_:count:)`` found.
    enum Outcome {
        /// The head goes on past the bytes given.
        case incomplete
        /// The head ends just before `end` (the offset after its blank line).
        case complete(end: Int)
        case refused(HTTPRefusal)
    }

    /// How the body after a complete head is framed.
    enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
    }

    let limits: Limits
    /// Where the request line starts (after empty lines before it, RFC 9112 §2.2).
    private(set) var start = 0
    /// Where the next line starts.
    private var position = 0
    private(set) var requestLineRead = false
    /// Whether the method and target were read (the rest of the request line may still be refused).
    private(set) var targetRead = false
    private(set) var methodEnd = 0
    private(set) var targetStart = 0
    private(set) var targetEnd = 0
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    private(set) var minorVersion = 1
    /// Where the first field line starts (the header block, for ``RequestHeaderBlockCache``).
    private(set) var fieldsStart = 0
    /// Field lines read so far, in order.
    private(set) var fields: [FieldRange] = []

    // What the fields said about framing and the connection.
    private var contentLength: Int?
    private var transferEncodings = 0
    private var lastCodingIsChunked = false
    private var chunkedNotLast = false
    private var unsupportedCoding: String?
    private(set) var hostCount = 0
    private(set) var connectionClose = false
    private(set) var connectionKeepAlive = false
    private(set) var expectsContinue = false

    init(limits: Limits) {
        self.limits = limits
    }

    /// Forgets the head read (its array's storage is kept), for the connection's next request.
    mutating func reset() {
        start = 0
        position = 0
        requestLineRead = false
        targetRead = false
        fieldsStart = 0
        fields.removeAll(keepingCapacity: true)
        contentLength = nil
        transferEncodings = 0
        lastCodingIsChunked = false
        chunkedNotLast = false
        unsupportedCoding = nil
        hostCount = 0
        connectionClose = false
        connectionKeepAlive = false
        expectsContinue = false
        minorVersion = 1
    }

    /// Whether no byte of a head has been taken yet (only empty lines, or nothing).
    var atStart: Bool { !requestLineRead && position == start }

    /// Reads on from where the last call stopped, in `base[0..<count]` (the same bytes as before
    /// at the same offsets, and possibly more).
    mutating func read(_ base: UnsafePointer<UInt8>, count: Int) -> Outcome {
        while true {
            guard let lineFeed = ByteScan.firstIndex(of: Self.lf, in: base, from: position, to: count) else {
                if !requestLineRead {
                    if count - start > limits.maxRequestLine { return .refused(Self.requestLineTooLong(limits)) }
                } else if count - fieldsStart > limits.maxFieldBytes {
                    return .refused(Self.fieldsTooLarge(limits))
                }
                return .incomplete
            }
            // RFC 9112 §2.2: lines end in CRLF. A bare LF is refused, as is a bare CR (below).
            guard lineFeed > position, base[lineFeed - 1] == Self.cr else {
                return .refused(.badRequest("a line ends in a bare LF without CR (RFC 9112 §2.2)"))
            }
            let lineEnd = lineFeed - 1
            if !requestLineRead {
                if lineEnd == position {
                    // RFC 9112 §2.2: empty lines before the request line are ignored (bounded).
                    position = lineFeed + 1
                    start = position
                    if start > limits.maxRequestLine {
                        return .refused(.badRequest("too many empty lines before the request line"))
                    }
                    continue
                }
                guard lineEnd - position <= limits.maxRequestLine else {
                    return .refused(Self.requestLineTooLong(limits))
                }
                if let refusal = readRequestLine(base, from: position, to: lineEnd) { return .refused(refusal) }
                requestLineRead = true
                position = lineFeed + 1
                fieldsStart = position
                continue
            }
            guard lineFeed + 1 - fieldsStart <= limits.maxFieldBytes + 2 else {
                return .refused(Self.fieldsTooLarge(limits))
            }
            if lineEnd == position {
                position = lineFeed + 1
                if let refusal = finish() { return .refused(refusal) }
                return .complete(end: position)
            }
            if let refusal = readField(base, from: position, to: lineEnd) { return .refused(refusal) }
            position = lineFeed + 1
        }
    }

    /// How the body is framed, once the head is complete.
    var framing: Framing {
        if transferEncodings > 0 { return .chunked }
        if let contentLength, contentLength > 0 { return .length(contentLength) }
        return .none
    }

    /// Whether the connection stays open after the response (RFC 9112 §9.3).
    var keepAlive: Bool {
        minorVersion == 1 ? !connectionClose : connectionKeepAlive && !connectionClose
    }

    // MARK: - Request line (RFC 9112 §3)

    private mutating func readRequestLine(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> HTTPRefusal? {
        // method = token
        var index = from
        while index < end, Self.isTokenByte(base[index]) { index += 1 }
        guard index > from, index < end, base[index] == Self.space else {
            return .badRequest(
                index == from
                    ? "the request line does not start with a method token (RFC 9112 §3)"
                    : "the method is not a token, or is not followed by a single space (RFC 9112 §3)")
        }
        methodEnd = index
        index += 1
        targetStart = index
        // request-target: visible ASCII characters only (RFC 9112 §3.2, RFC 3986 §2: other bytes
        // are percent-encoded; llhttp's strict mode refuses them too). Whitespace or a control
        // character ends the scan; the first byte from 0x80 up is remembered and refused once the
        // target is delimited, so the journal still gets the method and the target as sent.
        var nonASCII = -1
        while index < end {
            let byte = base[index]
            if byte &- 0x21 >= 0x5E {  // not 0x21...0x7E (one comparison on the common path)
                if byte < 0x80 { break }
                if nonASCII < 0 { nonASCII = index }
            }
            index += 1
        }
        guard index > targetStart, index < end, base[index] == Self.space else {
            if index > targetStart, index < end, base[index] != Self.space {
                return .badRequest(
                    "the request target has a control character \(Self.hex(base[index])) (RFC 9112 §3.2)")
            }
            return .badRequest(
                "the request line is not `method SP request-target SP HTTP-version` with single spaces (RFC 9112 §3)")
        }
        targetEnd = index
        targetRead = true
        if nonASCII >= 0 {
            return .badRequest(
                "the request target has a raw non-ASCII byte \(Self.hex(base[nonASCII])); bytes outside ASCII must be percent-encoded (RFC 3986 §2.1, RFC 9112 §3.2)"
            )
        }
        index += 1
        // HTTP-version = "HTTP/" DIGIT "." DIGIT, then the line's end.
        guard end - index == 8, base[index] == 0x48, base[index + 1] == 0x54, base[index + 2] == 0x54,
            base[index + 3] == 0x50,
            base[index + 4] == 0x2F, Self.isDigit(base[index + 5]), base[index + 6] == 0x2E,
            Self.isDigit(base[index + 7])
        else {
            return .badRequest("the request line does not end in an HTTP version such as HTTP/1.1 (RFC 9112 §2.3)")
        }
        // Another major version is not spoken here (505). A higher minor version of HTTP/1 is read
        // as the highest this server implements, 1.1 (RFC 9110 §2.5: minor versions are compatible).
        guard base[index + 5] == UInt8(ascii: "1") else {
            return HTTPRefusal(
                status: 505,
                reason:
                    "HTTP version \(Character(UnicodeScalar(base[index + 5]))).\(Character(UnicodeScalar(base[index + 7]))) is not supported; this server speaks HTTP/1.x (RFC 9110 §2.5)"
            )
        }
        minorVersion = base[index + 7] == UInt8(ascii: "0") ? 0 : 1
        return nil
    }

    // MARK: - Field lines (RFC 9112 §5, RFC 9110 §5)

    private mutating func readField(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> HTTPRefusal? {
        let first = base[from]
        if first == Self.space || first == Self.tab {
            return .badRequest(
                "a field line begins with whitespace: obs-fold (line folding) is not accepted (RFC 9112 §5.2)")
        }
        var index = from
        while index < end {
            let byte = base[index]
            if byte == Self.colon { break }
            guard Self.isTokenByte(byte) else {
                let name = Self.text(base, from: from, to: index)
                if byte == Self.space || byte == Self.tab {
                    // Find whether a colon follows the whitespace: then it is whitespace before the colon.
                    var probe = index
                    while probe < end, base[probe] == Self.space || base[probe] == Self.tab { probe += 1 }
                    if probe < end, base[probe] == Self.colon {
                        return .badRequest("whitespace before the colon in `\(name)` (RFC 9112 §5.1)")
                    }
                }
                if byte == Self.cr { return .badRequest("a bare CR in the field line `\(name)` (RFC 9112 §2.2)") }
                return .badRequest(
                    "the field name `\(name)…` has an invalid character \(Self.hex(byte)) (RFC 9110 §5.1)")
            }
            index += 1
        }
        guard index < end else {
            return .badRequest(
                "the field line `\(Self.text(base, from: from, to: min(end, from + 40)))` has no colon (RFC 9112 §5)")
        }
        guard index > from else { return .badRequest("a field line has an empty name (RFC 9110 §5.1)") }
        let nameEnd = index
        index += 1
        while index < end, base[index] == Self.space || base[index] == Self.tab { index += 1 }
        let valueStart = index
        if let bad = Self.firstControl(base, from: valueStart, to: end) {
            let name = Self.text(base, from: from, to: nameEnd)
            if base[bad] == Self.cr { return .badRequest("a bare CR in the value of `\(name)` (RFC 9112 §2.2)") }
            return .badRequest("the value of `\(name)` has a control character \(Self.hex(base[bad])) (RFC 9110 §5.5)")
        }
        var valueEnd = end
        while valueEnd > valueStart, base[valueEnd - 1] == Self.space || base[valueEnd - 1] == Self.tab {
            valueEnd -= 1
        }
        guard fields.count < limits.maxFields else {
            return HTTPRefusal(
                status: 431, reason: "more than \(limits.maxFields) header fields (the server's --max-header-count)")
        }
        fields.append(
            FieldRange(
                nameStart: Int32(from), nameEnd: Int32(nameEnd), valueStart: Int32(valueStart),
                valueEnd: Int32(valueEnd)))
        let nameLength = nameEnd - from
        // Only a few names matter to the transport; no other length can be one of them.
        switch nameLength {
        case 4 where Self.equalsIgnoringCase(base + from, "host"):
            hostCount += 1
            return Self.checkHost(base, from: valueStart, to: valueEnd)
        case 6 where Self.equalsIgnoringCase(base + from, "expect"):
            if valueEnd - valueStart == 12, Self.equalsIgnoringCase(base + valueStart, "100-continue") {
                expectsContinue = true
            }
        case 10 where Self.equalsIgnoringCase(base + from, "connection"):
            readConnection(base, from: valueStart, to: valueEnd)
        case 14 where Self.equalsIgnoringCase(base + from, "content-length"):
            return readContentLength(base, from: valueStart, to: valueEnd)
        case 17 where Self.equalsIgnoringCase(base + from, "transfer-encoding"):
            return readTransferEncoding(base, from: valueStart, to: valueEnd)
        default:
            break
        }
        return nil
    }

    /// `Content-Length = 1*DIGIT`; a list of identical values is one value (RFC 9110 §8.6), any
    /// other difference is refused (RFC 9112 §6.3).
    private mutating func readContentLength(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> HTTPRefusal? {
        var index = from
        repeat {
            while index < end, base[index] == Self.space || base[index] == Self.tab { index += 1 }
            let digitsStart = index
            var value = 0
            while index < end, Self.isDigit(base[index]) {
                guard index - digitsStart < 18 else {
                    return .badRequest(
                        "Content-Length `\(Self.text(base, from: from, to: end))` is too large (RFC 9112 §6.3)")
                }
                value = value * 10 + Int(base[index] - UInt8(ascii: "0"))
                index += 1
            }
            while index < end, base[index] == Self.space || base[index] == Self.tab { index += 1 }
            guard index > digitsStart, index == end || base[index] == UInt8(ascii: ",") else {
                return .badRequest(
                    "Content-Length `\(Self.text(base, from: from, to: end))` is not a decimal number (RFC 9110 §8.6)")
            }
            if let known = contentLength, known != value {
                return .badRequest("conflicting Content-Length values \(known) and \(value) (RFC 9112 §6.3)")
            }
            contentLength = value
            index += 1
        } while index < end
        return nil
    }

    /// `Transfer-Encoding = #transfer-coding`; only a final `chunked` can be read (RFC 9112 §6.1, §6.3).
    private mutating func readTransferEncoding(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> HTTPRefusal? {
        guard end > from else {
            return .badRequest("an empty Transfer-Encoding field: the body's length is unknown (RFC 9112 §6.1)")
        }
        var index = from
        while index <= end {
            while index < end, base[index] == Self.space || base[index] == Self.tab { index += 1 }
            let codingStart = index
            while index < end, base[index] != UInt8(ascii: ",") { index += 1 }
            var codingEnd = index
            while codingEnd > codingStart, base[codingEnd - 1] == Self.space || base[codingEnd - 1] == Self.tab {
                codingEnd -= 1
            }
            index += 1
            guard codingEnd > codingStart else { continue }  // an empty list element (RFC 9110 §5.6.1)
            // transfer-coding = token *( OWS ";" OWS transfer-parameter ); the token must be whole.
            var tokenEnd = codingStart
            while tokenEnd < codingEnd, Self.isTokenByte(base[tokenEnd]) { tokenEnd += 1 }
            let coding = Self.text(base, from: codingStart, to: codingEnd)
            guard tokenEnd > codingStart,
                tokenEnd == codingEnd || Self.isParameterStart(base, from: tokenEnd, to: codingEnd)
            else {
                return .badRequest(
                    "Transfer-Encoding `\(Self.text(base, from: from, to: end))` is not a list of transfer codings (RFC 9112 §6.1)"
                )
            }
            if lastCodingIsChunked { chunkedNotLast = true }
            transferEncodings += 1
            let isChunked =
                tokenEnd - codingStart == 7 && tokenEnd == codingEnd
                && Self.equalsIgnoringCase(base + codingStart, "chunked")
            lastCodingIsChunked = isChunked
            if !isChunked && unsupportedCoding == nil { unsupportedCoding = coding }
        }
        return nil
    }

    /// `Host = uri-host [ ":" port ]` (RFC 9112 §3.2): the host is an IP literal in brackets or a
    /// reg-name (RFC 3986 §3.2.2; a dotted IPv4 address is one), the port digits (§3.2.3). Any
    /// other value is refused with 400, as RFC 9112 §3.2 requires: a `/`, `@` or space in it would
    /// make the effective request URI differ between parties that read it differently. An empty
    /// value is allowed (a target without an authority, §3.2).
    static func checkHost(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> HTTPRefusal? {
        var index = from
        if index < end, base[index] == UInt8(ascii: "[") {
            guard let close = ByteScan.firstIndex(of: UInt8(ascii: "]"), in: base, from: index + 1, to: end),
                isIPLiteral(base, from: index + 1, to: close)
            else {
                return .badRequest(
                    "the Host value `\(text(base, from: from, to: end))` has no valid IP literal in its brackets (RFC 3986 §3.2.2, RFC 9112 §3.2)"
                )
            }
            index = close + 1
        } else {
            // reg-name = *( unreserved / pct-encoded / sub-delims )
            while index < end {
                let byte = base[index]
                if isRegNameByte(byte) {
                    index += 1
                } else if byte == UInt8(ascii: "%"), index + 2 < end,
                    ChunkedBodyReader.hexValue(base[index + 1]) != nil,
                    ChunkedBodyReader.hexValue(base[index + 2]) != nil
                {
                    index += 3
                } else {
                    break
                }
            }
        }
        if index < end, base[index] == colon {
            index += 1
            while index < end, isDigit(base[index]) { index += 1 }
            if index < end {
                return .badRequest(
                    "the Host value `\(text(base, from: from, to: end))` has a port that is not a number (RFC 3986 §3.2.3, RFC 9112 §3.2)"
                )
            }
        }
        guard index == end else {
            let byte = base[index]
            let shown = byte > space && byte < 0x7F ? "`\(Character(UnicodeScalar(byte)))`" : hex(byte)
            return .badRequest(
                "the Host value `\(text(base, from: from, to: end))` is not `host[:port]`: \(shown) cannot appear in a host name (RFC 3986 §3.2.2, RFC 9112 §3.2)"
            )
        }
        return nil
    }

    /// unreserved and sub-delims (RFC 3986 §2.2, §2.3): ALPHA, DIGIT and ``-._~!$&'()*+,;=``.
    @inline(__always)
    static func isRegNameByte(_ byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = 0x2BFF_7FD2_0000_0000  // ! $ & ' ( ) * + , - . 0-9 ; =
        case 1: word = 0x47FF_FFFE_87FF_FFFE  // A-Z _ a-z ~
        default: return false
        }
        return word >> UInt64(byte & 63) & 1 == 1
    }

    /// `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`, the part between the brackets (RFC 3986
    /// §3.2.2). No zone identifier: RFC 9110's URIs do not have one.
    static func isIPLiteral(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Bool {
        guard from < end else { return false }
        if base[from] | 0x20 == UInt8(ascii: "v") {
            // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
            var index = from + 1
            while index < end, ChunkedBodyReader.hexValue(base[index]) != nil { index += 1 }
            guard index > from + 1, index < end, base[index] == UInt8(ascii: ".") else { return false }
            index += 1
            guard index < end else { return false }
            while index < end {
                guard isRegNameByte(base[index]) || base[index] == colon else { return false }
                index += 1
            }
            return true
        }
        return isIPv6(base, from: from, to: end)
    }

    /// `IPv6address` (RFC 3986 §3.2.2): eight groups of 1 to 4 hex digits separated by `:`, the
    /// last two of which may be a dotted IPv4 address, with at most one `::` standing for one or
    /// more groups of zeros.
    static func isIPv6(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Bool {
        var index = from
        var groups = 0
        var elided = false
        if end - index >= 2, base[index] == colon, base[index + 1] == colon {
            elided = true
            index += 2
            if index == end { return true }  // "::"
        }
        while index < end {
            let groupStart = index
            while index < end, index - groupStart < 5, ChunkedBodyReader.hexValue(base[index]) != nil { index += 1 }
            if index < end, base[index] == UInt8(ascii: ".") {
                // ls32 as an IPv4 address: the rest of the literal, counted as two groups.
                guard isIPv4(base, from: groupStart, to: end) else { return false }
                groups += 2
                break
            }
            guard index > groupStart, index - groupStart <= 4 else { return false }
            groups += 1
            if index == end { break }
            guard base[index] == colon, index + 1 < end else { return false }
            index += 1
            if base[index] == colon {
                guard !elided else { return false }
                elided = true
                index += 1
            }
        }
        return elided ? groups <= 7 : groups == 8
    }

    /// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`, each 0 to 255 without
    /// leading zeros (RFC 3986 §3.2.2).
    static func isIPv4(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Bool {
        var index = from
        for octet in 0..<4 {
            if octet > 0 {
                guard index < end, base[index] == UInt8(ascii: ".") else { return false }
                index += 1
            }
            let digitsStart = index
            var value = 0
            while index < end, index - digitsStart < 3, isDigit(base[index]) {
                value = value * 10 + Int(base[index] - UInt8(ascii: "0"))
                index += 1
            }
            let length = index - digitsStart
            guard length > 0, value <= 255, length == 1 || base[digitsStart] != UInt8(ascii: "0") else { return false }
        }
        return index == end
    }

    private static func isParameterStart(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Bool {
        var index = from
        while index < end, base[index] == space || base[index] == tab { index += 1 }
        return index < end && base[index] == UInt8(ascii: ";")
    }

    /// `Connection` options: `close` and `keep-alive` (RFC 9112 §9.3).
    private mutating func readConnection(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) {
        var index = from
        while index < end {
            while index < end, base[index] == Self.space || base[index] == Self.tab || base[index] == UInt8(ascii: ",")
            { index += 1 }
            let optionStart = index
            while index < end, base[index] != UInt8(ascii: ","), base[index] != Self.space, base[index] != Self.tab {
                index += 1
            }
            let length = index - optionStart
            if length == 5 && Self.equalsIgnoringCase(base + optionStart, "close") { connectionClose = true }
            if length == 10 && Self.equalsIgnoringCase(base + optionStart, "keep-alive") { connectionKeepAlive = true }
        }
    }

    /// The checks that need the whole head.
    private func finish() -> HTTPRefusal? {
        if minorVersion == 1 && hostCount == 0 {
            return .badRequest("an HTTP/1.1 request without a Host field (RFC 9112 §3.2)")
        }
        if hostCount > 1 { return .badRequest("more than one Host field (RFC 9112 §3.2)") }
        guard transferEncodings > 0 else { return nil }
        if contentLength != nil {
            return .badRequest(
                "both Content-Length and Transfer-Encoding: the body's length is ambiguous (RFC 9112 §6.1, §6.3)")
        }
        if minorVersion == 0 {
            return .badRequest("Transfer-Encoding in an HTTP/1.0 request: its framing is faulty (RFC 9112 §6.1)")
        }
        if !lastCodingIsChunked || chunkedNotLast {
            return .badRequest(
                "Transfer-Encoding does not end in a single final `chunked`, so the body's length is unknown (RFC 9112 §6.3)"
            )
        }
        if let unsupportedCoding {
            return HTTPRefusal(
                status: 501,
                reason: "transfer coding `\(unsupportedCoding)` is not implemented; only chunked is (RFC 9112 §6.1)")
        }
        return nil
    }

    // MARK: - Bytes

    static let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A, space: UInt8 = 0x20, tab: UInt8 = 0x09, colon: UInt8 = 0x3A

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// tchar (RFC 9110 §5.6.2): ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        // Bit b of word (byte >> 6) says whether `byte` is a tchar.
        let word: UInt64
        switch byte >> 6 {
        case 0: word = 0x03FF_6CFA_0000_0000  // ! # $ % & ' * + - . 0-9
        case 1: word = 0x57FF_FFFF_C7FF_FFFE  // A-Z ^ _ ` a-z | ~
        default: return false
        }
        return word >> UInt64(byte & 63) & 1 == 1
    }

    /// The first control character (other than HTAB) or DEL in `base[from..<end]`, eight bytes
    /// at a time: field values are most of a head's bytes.
    @inline(__always)
    static func firstControl(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
        let raw = UnsafeRawPointer(base)
        var index = from
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // A byte below 0x20 (for bytes below 0x80; bytes from 0x80 up are obs-text, allowed)
            // or equal to 0x7F: the classic "has less than" and "has zero" tests.
            let below = (word &- ones &* 0x20) & ~word & high
            let del = word ^ (ones &* 0x7F)
            let isDel = (del &- ones) & ~del & high
            if below | isDel != 0 { break }
            index &+= 8
        }
        while index < end {
            let byte = base[index]
            if (byte < space && byte != tab) || byte == 0x7F { return index }
            index &+= 1
        }
        return nil
    }

    /// Whether the bytes at `start` are the lower-case ASCII `lowercase`, in any case.
    @inline(__always)
    static func equalsIgnoringCase(_ start: UnsafePointer<UInt8>, _ lowercase: StaticString) -> Bool {
        let wanted = lowercase.utf8Start
        for index in 0..<lowercase.utf8CodeUnitCount {
            let byte = start[index]
            if byte | (byte &- 0x41 < 26 ? 0x20 : 0) != wanted[index] { return false }
        }
        return true
    }

    static func text(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + from, count: max(0, end - from)), as: UTF8.self)
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return "0x" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
    }

    static func requestLineTooLong(_ limits: Limits) -> HTTPRefusal {
        HTTPRefusal(status: 414, reason: "the request line is longer than \(limits.maxRequestLine) bytes")
    }

    static func fieldsTooLarge(_ limits: Limits) -> HTTPRefusal {
        HTTPRefusal(
            status: 431,
            reason: "the header fields are larger than \(limits.maxFieldBytes) bytes (the server's --max-header-bytes)")
    }
}
