/// Appends compact JSON to a byte buffer. Hand-written so the journal and admin responses never go
/// through `JSONSerialization` (slow, and it loses key order).
struct JSONWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(utf8: $0) }
    }

    /// A JSON string from bytes already known to be UTF-8.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(utf8, lowercasingASCII: false)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A JSON string of `text` with ASCII letters lower-cased (header names in the journal).
    mutating func lowercasedString(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            appendEscaped(utf8, lowercasingASCII: true)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, lowercasingASCII: Bool) {
        if lowercasingASCII {
            for byte in utf8 {
                if byte >= 65 && byte <= 90 { bytes.append(byte + 32) } else if Self.needsEscape(byte) { appendEscape(byte) } else { bytes.append(byte) }
            }
            return
        }
        // Copy runs that need no escaping in one go; only escapes go byte by byte.
        var runStart = 0
        for i in 0..<utf8.count where Self.needsEscape(utf8[i]) {
            if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            runStart = i + 1
            appendEscape(utf8[i])
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(0x5C)
        switch byte {
        case 0x22: bytes.append(0x22)
        case 0x5C: bytes.append(0x5C)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(UInt8(ascii: "u"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(Self.hex[Int(byte >> 4)])
            bytes.append(Self.hex[Int(byte & 0xF)])
        }
    }

    /// A non-negative integer without going through `String`.
    mutating func digits(_ value: UInt64, minimumWidth: Int = 1) {
        var buffer: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &buffer) { raw in
            repeat {
                raw[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0 || count < minimumWidth
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[(20 - count)...]))
        }
    }

    mutating func optionalString(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    mutating func int(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            digits(value.magnitude.toUInt64)
        } else {
            digits(UInt64(value))
        }
    }

    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// A key and its colon, preceded by a comma unless `first`.
    mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func key(_ name: String, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let b): bool(b)
        case .number(let n): raw(n)
        case .string(let s): string(s)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                key(member.key, first: i == 0)
                self.value(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}

private extension UInt {
    var toUInt64: UInt64 { UInt64(self) }
}

extension JSONValue {
    /// Compact JSON bytes, members in their written order.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        return writer.bytes
    }

    /// Parses a JSON document (strict RFC 8259); `nil` when it is not JSON.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONParser.parse(bytes).value
    }
}
