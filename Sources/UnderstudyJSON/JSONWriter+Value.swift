extension JSONWriter {
    /// A key and its colon, preceded by a comma unless `first`, for keys known only at run time.
    public func key(_ name: String, first: Bool = false) {
        if !first { append(UInt8(ascii: ",")) }
        appendJSONString(name)
        append(UInt8(ascii: ":"))
    }

    /// Bytes already JSON (a journal line kept from earlier), copied as they are.
    public func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// A whole value, compact, members in their written order, numbers as written.
    public func value(_ value: JSONValue) {
        switch value {
        case .null: append("null" as StaticString)
        case .bool(let b): bool(b)
        case .number(let n): append(n)
        case .string(let s): appendJSONString(s)
        case .array(let items):
            append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { append(UInt8(ascii: ",")) }
                self.value(item)
            }
            append(UInt8(ascii: "]"))
        case .object(let members):
            append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                key(member.key, first: i == 0)
                self.value(member.value)
            }
            append(UInt8(ascii: "}"))
        }
    }
}

extension JSONValue {
    /// Compact JSON bytes, members in their written order.
    public var jsonBytes: [UInt8] {
        let writer = JSONWriter(capacity: 256)
        writer.value(self)
        return writer.bytes
    }

    /// Parses a JSON document (strict RFC 8259); `nil` when it is not JSON.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONParser.parse(bytes).value
    }
}

/// Compact JSON text in written order, numbers as written: what the test kit sends to the daemon,
/// and what failure messages show. Written by ``JSONWriter``, the package's one escaper.
extension JSONValue: CustomStringConvertible {
    public var description: String { jsonText }

    /// The value as compact JSON text, members in order, numbers as written.
    public var jsonText: String {
        String(decoding: jsonBytes, as: UTF8.self)
    }
}
