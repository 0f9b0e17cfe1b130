/// Reads a chunked request body (RFC 9112 §7.1) from the front of a byte stream, one step at a
/// time: the caller shows it the bytes it has, and it says how many of them are framing to drop,
/// body to keep, or that it needs more. Strict where a lenient reading would let two parties
/// disagree about where the body ends: a chunk size is 1 to 15 hex digits and nothing else
/// (no sign, no `0x`, no leading whitespace), followed by the line's end or `;` extensions
/// that follow RFC 9112 §7.1.1's grammar; every line ends in CRLF; chunk data is followed by
/// exactly CRLF.
struct ChunkedBodyReader {
    enum Step: Equatable {
        case needMore
        /// Drop this many bytes (a chunk-size line, the CRLF after data, a trailer line).
        case framing(Int)
        /// Keep this many bytes as body.
        case data(Int)
        /// Drop this many bytes; the body is complete.
        case end(Int)
        case refused(HTTPRefusal)
    }

    private enum State {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailer
    }

    /// The longest chunk-size line (with extensions) read.
    static let maxLine = 4096

    private var state = State.size
    private(set) var total = 0
    private var trailerBytes = 0
    let maxBody: Int
    let maxTrailerBytes: Int

    init(maxBody: Int, maxTrailerBytes: Int) {
        self.maxBody = maxBody
        self.maxTrailerBytes = maxTrailerBytes
    }

    mutating func step(_ base: UnsafePointer<UInt8>, count: Int) -> Step {
        switch state {
        case .size:
            guard
                let lineFeed = ByteScan.firstIndex(
                    of: RequestHeadParser.lf, in: base, from: 0, to: min(count, Self.maxLine + 2))
            else {
                return count > Self.maxLine
                    ? .refused(.badRequest("a chunk-size line is longer than \(Self.maxLine) bytes")) : .needMore
            }
            guard lineFeed > 0, base[lineFeed - 1] == RequestHeadParser.cr else {
                return .refused(.badRequest("a chunk-size line ends in a bare LF without CR (RFC 9112 §7.1)"))
            }
            switch Self.chunkSize(base, end: lineFeed - 1) {
            case .failure(let refusal):
                return .refused(refusal)
            case .success(0):
                state = .trailer
            case .success(let size):
                guard size <= maxBody - total else {
                    return .refused(
                        HTTPRefusal(
                            status: 413, reason: "the chunked request body is larger than the \(maxBody)-byte limit"))
                }
                total += size
                state = .data(remaining: size)
            }
            return .framing(lineFeed + 1)
        case .data(let remaining):
            guard count > 0 else { return .needMore }
            let taken = min(remaining, count)
            state = remaining - taken > 0 ? .data(remaining: remaining - taken) : .dataEnd
            return .data(taken)
        case .dataEnd:
            guard count > 0 else { return .needMore }
            guard base[0] == RequestHeadParser.cr, count < 2 || base[1] == RequestHeadParser.lf else {
                return .refused(
                    .badRequest(
                        "chunk data is not followed by CRLF: the chunk is longer or shorter than its size (RFC 9112 §7.1)"
                    ))
            }
            guard count >= 2 else { return .needMore }
            state = .size
            return .framing(2)
        case .trailer:
            let window = min(count, maxTrailerBytes - trailerBytes + 2)
            guard let lineFeed = ByteScan.firstIndex(of: RequestHeadParser.lf, in: base, from: 0, to: window) else {
                return count > maxTrailerBytes - trailerBytes
                    ? .refused(
                        HTTPRefusal(
                            status: 431,
                            reason: "the chunked body's trailer fields are larger than \(maxTrailerBytes) bytes"))
                    : .needMore
            }
            guard lineFeed > 0, base[lineFeed - 1] == RequestHeadParser.cr else {
                return .refused(.badRequest("a trailer line ends in a bare LF without CR (RFC 9112 §7.1.2)"))
            }
            if lineFeed == 1 { return .end(2) }
            if let refusal = Self.checkTrailerField(base, end: lineFeed - 1) { return .refused(refusal) }
            trailerBytes += lineFeed + 1
            return .framing(lineFeed + 1)
        }
    }

    /// `chunk-size [ chunk-ext ]`: 1*HEXDIG then, optionally, `*( BWS ";" BWS ext-name [ BWS "=" BWS ext-val ] )`.
    static func chunkSize(_ base: UnsafePointer<UInt8>, end: Int) -> Result<Int, HTTPRefusal> {
        var index = 0
        var size = 0
        while index < end, let digit = hexValue(base[index]) {
            guard index < 15 else {
                return .failure(
                    .badRequest(
                        "the chunk size `\(RequestHeadParser.text(base, from: 0, to: end))` is too large (RFC 9112 §7.1)"
                    ))
            }
            size = size << 4 | digit
            index += 1
        }
        guard index > 0 else {
            return .failure(
                .badRequest(
                    "the chunk size `\(RequestHeadParser.text(base, from: 0, to: min(end, 40)))` does not start with a hex digit (RFC 9112 §7.1)"
                ))
        }
        guard index < end else { return .success(size) }
        if let refusal = checkExtensions(base, from: index, to: end) { return .failure(refusal) }
        return .success(size)
    }

    /// `chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )` with
    /// `chunk-ext-val = token / quoted-string` (RFC 9112 §7.1.1, RFC 9110 §5.6.4), read exactly and
    /// then ignored. Whitespace is allowed only where BWS is: a `;` with no name after it (`2;`), a
    /// value left open (`a="b`) or anything else after the size is refused, because parsers that
    /// read a chunk line differently disagree on where the body ends (llhttp's strict mode agrees).
    static func checkExtensions(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> HTTPRefusal? {
        func skipWhitespace(_ index: inout Int) {
            while index < end, base[index] == RequestHeadParser.space || base[index] == RequestHeadParser.tab {
                index += 1
            }
        }
        func line() -> String { RequestHeadParser.text(base, from: 0, to: min(end, 40)) }
        var index = from
        while index < end {
            skipWhitespace(&index)
            guard index < end, base[index] == UInt8(ascii: ";") else {
                return .badRequest(
                    "the chunk size `\(line())` is followed by something other than `;` and an extension (RFC 9112 §7.1.1)"
                )
            }
            index += 1
            skipWhitespace(&index)
            let nameStart = index
            while index < end, RequestHeadParser.isTokenByte(base[index]) { index += 1 }
            guard index > nameStart else {
                return .badRequest(
                    "a `;` in the chunk-size line `\(line())` is not followed by an extension name (RFC 9112 §7.1.1)")
            }
            var probe = index
            skipWhitespace(&probe)
            guard probe < end, base[probe] == UInt8(ascii: "=") else { continue }
            index = probe + 1
            skipWhitespace(&index)
            if index < end, base[index] == UInt8(ascii: "\"") {
                // quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE: any byte but controls
                // (HTAB allowed) and DEL, with `"` and `\` only escaped by a `\`.
                index += 1
                while true {
                    guard index < end else {
                        return .badRequest(
                            "a quoted chunk-extension value in `\(line())` has no closing quote (RFC 9112 §7.1.1, RFC 9110 §5.6.4)"
                        )
                    }
                    var byte = base[index]
                    if byte == UInt8(ascii: "\"") { break }
                    if byte == UInt8(ascii: "\\"), index + 1 < end {
                        index += 1
                        byte = base[index]
                    }
                    guard byte >= RequestHeadParser.space && byte != 0x7F || byte == RequestHeadParser.tab else {
                        return .badRequest(
                            "a chunk extension has a control character \(RequestHeadParser.hex(byte)) (RFC 9112 §7.1.1)"
                        )
                    }
                    index += 1
                }
                index += 1
            } else {
                let valueStart = index
                while index < end, RequestHeadParser.isTokenByte(base[index]) { index += 1 }
                guard index > valueStart else {
                    return .badRequest(
                        "the chunk extension in `\(line())` has `=` but no token or quoted value after it (RFC 9112 §7.1.1)"
                    )
                }
            }
        }
        return nil
    }

    /// A trailer field line: `name ":" value` as in a head (RFC 9112 §7.1.2); its value is dropped.
    private static func checkTrailerField(_ base: UnsafePointer<UInt8>, end: Int) -> HTTPRefusal? {
        var index = 0
        while index < end, RequestHeadParser.isTokenByte(base[index]) { index += 1 }
        guard index > 0, index < end, base[index] == RequestHeadParser.colon else {
            return .badRequest("a trailer line is not a field line `name: value` (RFC 9112 §7.1.2)")
        }
        if let bad = RequestHeadParser.firstControl(base, from: index + 1, to: end) {
            return .badRequest(
                "a trailer field has a control character \(RequestHeadParser.hex(base[bad])) (RFC 9110 §5.5)")
        }
        return nil
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
