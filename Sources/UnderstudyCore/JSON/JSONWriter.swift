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
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case 0x22: bytes.append(0x5C); bytes.append(0x22)
            case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
            case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func optionalString(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    mutating func int(_ value: Int) {
        raw(String(value))
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
