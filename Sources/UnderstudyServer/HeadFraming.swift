/// What a request head's lines say about the framing of its body, gathered line by line as
/// ``RequestStreamParser`` reads them, from bytes (no strings are made on this path).
///
/// It follows libevent 2.1's reading: the method token picks whether a body is read at all, the
/// first `Transfer-Encoding` says whether it is chunked, and otherwise the first `Content-Length`
/// gives its size.
///
/// It runs on every line of every request, so it only looks closely at what can change the
/// framing: a header line is classified by the length of its name, and only a name as long as
/// `Content-Length` or `Transfer-Encoding` is compared (case-insensitively) and has its value read.
struct HeadFraming {
    /// How libevent 2.1 treats a method.
    enum Method {
        /// GET, POST, PUT, DELETE, OPTIONS, CONNECT, PATCH: a declared body is read.
        case readsBody
        /// HEAD and TRACE: known, but no body is read.
        case noBody
        /// Any other token: evhttp hands the request over nameless and reads no body.
        case unknown
    }

    /// The first `Content-Length` field.
    enum ContentLength {
        case absent
        case value(Int)
        /// Not a non-negative decimal integer: evhttp refuses the request (unless chunked).
        case invalid
    }

    /// Complete lines taken so far (the request line included).
    private(set) var lines = 0
    private(set) var method = Method.unknown
    private(set) var chunked = false
    private(set) var contentLength = ContentLength.absent
    private var sawTransferEncoding = false

    /// What ``takeLine(_:from:to:)`` found.
    enum LineRead {
        /// The line ending at this line feed was taken.
        case taken(lineFeed: Int)
        /// The blank line that ends the head (nothing taken).
        case blank(lineFeed: Int)
        /// A complete line evhttp would refuse.
        case invalid
        /// The line goes on past `end` (nothing taken).
        case incomplete
    }

    /// Takes the line that starts at `base[from]`, if it ends (in a line feed) before `end`.
    ///
    /// It runs for every line of every request, in place, so it makes one pass over a line's
    /// bytes where it can: a field's name runs to the first colon or line feed (none: evhttp
    /// refuses the line), and only names as long as `Content-Length` or `Transfer-Encoding` are
    /// looked at further. Line ends are evhttp's `EVBUFFER_EOL_CRLF`: a LF, and one CR before it
    /// is not part of the line.
    @inline(__always)
    mutating func takeLine(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> LineRead {
        guard from < end else { return .incomplete }
        let lineFeed = UInt8(ascii: "\n")
        if lines == 0 { return takeFirstLine(base, from: from, to: end) }
        let first = base[from]
        if first == lineFeed { return .blank(lineFeed: from) }
        if first == UInt8(ascii: "\r") && from + 1 < end && base[from + 1] == lineFeed { return .blank(lineFeed: from + 1) }
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            // A folded continuation: evhttp appends it to the previous value; framing ignores it.
            guard let end = ByteScan.firstIndex(of: lineFeed, in: base, from: from, to: end) else { return .incomplete }
            lines += 1
            return .taken(lineFeed: end)
        }
        guard let nameEnd = ByteScan.firstIndex(of: UInt8(ascii: ":"), or: lineFeed, in: base, from: from, to: end) else { return .incomplete }
        guard base[nameEnd] != lineFeed else { return .invalid }  // not blank: it needs a colon
        guard let fieldEnd = ByteScan.firstIndex(of: lineFeed, in: base, from: nameEnd + 1, to: end) else { return .incomplete }
        lines += 1
        // Only two names matter, and no other length can be either of them.
        let nameLength = nameEnd - from
        if nameLength == 14 || nameLength == 17 {
            takeFramingField(Self.line(base, from: from, lineFeed: fieldEnd), nameLength: nameLength)
        }
        return .taken(lineFeed: fieldEnd)
    }

    /// The line from `start` to the line feed at `lineFeed`, without the line ending (the LF and
    /// one CR before it).
    static func line(_ base: UnsafePointer<UInt8>, from start: Int, lineFeed: Int) -> UnsafeBufferPointer<UInt8> {
        let hasCR = lineFeed > start && base[lineFeed - 1] == UInt8(ascii: "\r")
        return UnsafeBufferPointer(start: base + start, count: lineFeed - start - (hasCR ? 1 : 0))
    }

    /// The request line (or a blank line where it should be).
    @inline(__always)
    private mutating func takeFirstLine(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> LineRead {
        if let lineFeed = takeCommonRequestLine(base, from: from, to: end) { return .taken(lineFeed: lineFeed) }
        guard let lineFeed = ByteScan.firstIndex(of: UInt8(ascii: "\n"), in: base, from: from, to: end) else { return .incomplete }
        let line = Self.line(base, from: from, lineFeed: lineFeed)
        if line.isEmpty { return .blank(lineFeed: lineFeed) }
        lines = 1
        return takeRequestLine(line) ? .taken(lineFeed: lineFeed) : .invalid
    }

    /// A field whose name is as long as `Content-Length` (14) or `Transfer-Encoding` (17): the
    /// first of each decides the framing.
    @inline(never)
    private mutating func takeFramingField(_ line: UnsafeBufferPointer<UInt8>, nameLength: Int) {
        let start = line.baseAddress!  // the caller found a colon in it
        if nameLength == 17 && !sawTransferEncoding && Self.equalsIgnoringCase(start, "transfer-encoding") {
            sawTransferEncoding = true
            let value = Self.trimmed(line[(nameLength + 1)...])
            chunked = value.count == 7 && Self.equalsIgnoringCase(start + value.startIndex, "chunked")
        } else if nameLength == 14, case .absent = contentLength, Self.equalsIgnoringCase(start, "content-length") {
            contentLength = Self.decimal(Self.trimmed(line[(nameLength + 1)...])).map { .value($0) } ?? .invalid
        }
    }

    /// The request line at `base[from...]`, in one pass over its bytes when its method is GET,
    /// PUT, POST or HEAD, it ends before `end` and it is well formed (the usual case): returns the
    /// index of its line feed. Otherwise nil and nothing taken: ``takeRequestLine(_:)`` judges
    /// the line once its end is found, as it does every other request line.
    @inline(__always)
    private mutating func takeCommonRequestLine(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
        let start = base + from
        let count = end - from
        guard count > 4, let (firstSpace, common) = Self.commonMethod(start) else { return nil }
        let space = UInt8(ascii: " "), lineFeed = UInt8(ascii: "\n")
        // The target ends at the next space, the version at the line feed (a CR before it is no
        // space); a line feed before the target's end, or a space in the version, is for
        // takeRequestLine(_:).
        guard let secondSpace = ByteScan.firstIndex(of: space, or: lineFeed, in: start, from: firstSpace + 1, to: count),
              start[secondSpace] == space,
              let versionEnd = Self.http1LineEnd(start, from: secondSpace + 1, to: count)
                ?? ByteScan.firstIndex(of: space, or: lineFeed, in: start, from: secondSpace + 1, to: count),
              start[versionEnd] == lineFeed,
              ByteScan.isASCII(start, count: secondSpace) else { return nil }
        lines = 1
        method = common
        return from + versionEnd
    }

    /// `METHOD TARGET VERSION`, split on single spaces into exactly three parts, method and
    /// target UTF-8.
    private mutating func takeRequestLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = line.baseAddress else { return false }
        let count = line.count
        let space = UInt8(ascii: " ")
        let firstSpace: Int
        if count > 4, let common = Self.commonMethod(start) {
            (firstSpace, method) = common
        } else {
            guard let found = ByteScan.firstIndex(of: space, in: start, from: 0, to: count), found > 0 else { return false }
            firstSpace = found
            method = Self.classify(UnsafeBufferPointer(start: start, count: firstSpace))
        }
        guard let secondSpace = ByteScan.firstIndex(of: space, in: start, from: firstSpace + 1, to: count),
              ByteScan.firstIndex(of: space, in: start, from: secondSpace + 1, to: count) == nil else { return false }
        // Method and target are UTF-8; ASCII (the usual case) is checked a word at a time.
        if !ByteScan.isASCII(start, count: secondSpace) {
            let token = UnsafeBufferPointer(start: start, count: firstSpace)
            let target = UnsafeBufferPointer(start: start + firstSpace + 1, count: secondSpace - firstSpace - 1)
            guard Self.isUTF8(token), Self.isUTF8(target) else { return false }
        }
        return true
    }

    /// Where the line feed is when `HTTP/1.1` or `HTTP/1.0` and the line's end (CRLF or LF) are
    /// at `from` (nearly every request line); nil otherwise.
    @inline(__always)
    private static func http1LineEnd(_ start: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
        guard end - from >= 9 else { return nil }
        // The eight bytes as a little-endian word: "HTTP/1.1" is 0x31_2E_31_2F_50_54_54_48.
        let version = UInt64(littleEndian: UnsafeRawPointer(start + from).loadUnaligned(as: UInt64.self))
        guard version == 0x312E_312F_5054_5448 || version == 0x302E_312F_5054_5448 else { return nil }
        let after = start[from + 8]
        if after == UInt8(ascii: "\n") { return from + 8 }
        if after == UInt8(ascii: "\r") && end - from >= 10 && start[from + 9] == UInt8(ascii: "\n") { return from + 9 }
        return nil
    }

    /// GET, PUT, POST and HEAD followed by a space, told from the first four bytes at once (at
    /// least five are there); nil for any other start, which ``classify(_:)`` sorts out.
    @inline(__always)
    private static func commonMethod(_ start: UnsafePointer<UInt8>) -> (length: Int, method: Method)? {
        // The four bytes as a little-endian word: "GET " is 0x20_54_45_47, and so on.
        switch UInt32(littleEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt32.self)) {
        case 0x2054_4547, 0x2054_5550: return (3, .readsBody)  // "GET ", "PUT "
        case 0x5453_4F50 where start[4] == UInt8(ascii: " "): return (4, .readsBody)  // "POST"
        case 0x4441_4548 where start[4] == UInt8(ascii: " "): return (4, .noBody)  // "HEAD"
        default: return nil
        }
    }

    /// libevent 2.1's method table (case-sensitive, as it compares).
    static func classify(_ token: UnsafeBufferPointer<UInt8>) -> Method {
        guard let start = token.baseAddress else { return .unknown }
        switch token.count {
        case 3:
            if equals(start, "GET") || equals(start, "PUT") { return .readsBody }
        case 4:
            if equals(start, "POST") { return .readsBody }
            if equals(start, "HEAD") { return .noBody }
        case 5:
            if equals(start, "PATCH") { return .readsBody }
            if equals(start, "TRACE") { return .noBody }
        case 6:
            if equals(start, "DELETE") { return .readsBody }
        case 7:
            if equals(start, "OPTIONS") || equals(start, "CONNECT") { return .readsBody }
        default:
            break
        }
        return .unknown
    }

    /// The bytes without leading and trailing spaces and tabs (header values, as evhttp trims them).
    static func trimmed<C: BidirectionalCollection>(_ bytes: C) -> C.SubSequence where C.Element == UInt8 {
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[start...end]
    }

    /// A non-negative decimal integer, accepting what Swift's `Int(_:)` accepts (a sign, digits).
    static func decimal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var digits = bytes[...]
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            guard !overflow1 && !overflow2 else { return nil }
            value = sum
        }
        return negative && value != 0 ? nil : value
    }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// Whether the bytes at `start` are `text` (the caller has checked there are as many).
    private static func equals(_ start: UnsafePointer<UInt8>, _ text: StaticString) -> Bool {
        let wanted = text.utf8Start
        for index in 0..<text.utf8CodeUnitCount where start[index] != wanted[index] {
            return false
        }
        return true
    }

    /// Whether the bytes at `start` are the lower-case literal, ignoring ASCII case (the caller
    /// has checked there are as many).
    private static func equalsIgnoringCase(_ start: UnsafePointer<UInt8>, _ lowercase: StaticString) -> Bool {
        let wanted = lowercase.utf8Start
        for index in 0..<lowercase.utf8CodeUnitCount {
            let byte = start[index]
            let lowered = byte >= 65 && byte <= 90 ? byte + 32 : byte
            if lowered != wanted[index] { return false }
        }
        return true
    }

    private static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if !bytes.contains(where: { $0 >= 0x80 }) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
    }
}
