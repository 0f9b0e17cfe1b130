/// What a request head's lines say about the framing of its body, gathered line by line as
/// ``RequestStreamParser`` reads them, from bytes (no strings are made on this path).
///
/// It follows libevent 2.1's reading: the method token picks whether a body is read at all, the
/// first `Transfer-Encoding` says whether it is chunked, and otherwise the first `Content-Length`
/// gives its size.
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

    /// Takes one complete line (without its line ending); false when evhttp would refuse the head.
    mutating func take(line: UnsafeBufferPointer<UInt8>) -> Bool {
        lines += 1
        if lines == 1 { return takeRequestLine(line) }
        guard let first = line.first else { return true }
        // A folded continuation: evhttp appends it to the previous value; framing ignores it.
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { return true }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let name = UnsafeBufferPointer(rebasing: line[..<colon])
        let value = Self.trimmed(line[(colon + 1)...])
        if !sawTransferEncoding && Self.equalsIgnoringCase(name, "transfer-encoding") {
            sawTransferEncoding = true
            chunked = Self.equalsIgnoringCase(UnsafeBufferPointer(rebasing: value), "chunked")
        } else if case .absent = contentLength, Self.equalsIgnoringCase(name, "content-length") {
            contentLength = Self.decimal(value).map { .value($0) } ?? .invalid
        }
        return true
    }

    /// `METHOD TARGET VERSION`, split on single spaces into exactly three parts, method and
    /// target UTF-8.
    private mutating func takeRequestLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let firstSpace = line.firstIndex(of: UInt8(ascii: " ")), firstSpace > 0 else { return false }
        let afterMethod = line[(firstSpace + 1)...]
        guard let secondSpace = afterMethod.firstIndex(of: UInt8(ascii: " ")),
              !line[(secondSpace + 1)...].contains(UInt8(ascii: " ")) else { return false }
        let token = UnsafeBufferPointer(rebasing: line[..<firstSpace])
        let target = UnsafeBufferPointer(rebasing: line[(firstSpace + 1)..<secondSpace])
        guard Self.isUTF8(token), Self.isUTF8(target) else { return false }
        method = Self.classify(token)
        return true
    }

    /// libevent 2.1's method table (case-sensitive, as it compares).
    static func classify(_ token: UnsafeBufferPointer<UInt8>) -> Method {
        switch token.count {
        case 3:
            if equals(token, "GET") || equals(token, "PUT") { return .readsBody }
        case 4:
            if equals(token, "POST") { return .readsBody }
            if equals(token, "HEAD") { return .noBody }
        case 5:
            if equals(token, "PATCH") { return .readsBody }
            if equals(token, "TRACE") { return .noBody }
        case 6:
            if equals(token, "DELETE") { return .readsBody }
        case 7:
            if equals(token, "OPTIONS") || equals(token, "CONNECT") { return .readsBody }
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

    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && memcmpEqual(bytes, text)
    }

    private static func memcmpEqual(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        let other = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        return bytes.elementsEqual(other)
    }

    /// ASCII case-insensitive comparison with a lower-case literal.
    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let other = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        for (byte, wanted) in zip(bytes, other) {
            let lowered = byte >= 65 && byte <= 90 ? byte + 32 : byte
            if lowered != wanted { return false }
        }
        return true
    }

    private static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if !bytes.contains(where: { $0 >= 0x80 }) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
    }
}
