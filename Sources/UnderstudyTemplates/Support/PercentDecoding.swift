/// Percent-decoding for paths and query strings, without Foundation (it runs on every request).
package enum PercentDecoding {
    /// Decodes `%XX` escapes; malformed escapes are kept as written, and byte sequences that are
    /// not UTF-8 are repaired rather than dropped.
    package static func decodePath(_ text: String) -> String {
        guard text.containsUTF8Byte(where: { $0 == UInt8(ascii: "%") }) else { return text }
        return decode(text.utf8, plusAsSpace: false)
    }

    /// Decodes a query component: `+` is a space, then `%XX` escapes.
    package static func decodeQueryComponent<S: Collection>(_ bytes: S) -> String where S.Element == UInt8 {
        decode(bytes, plusAsSpace: true)
    }

    private static func decode<S: Collection>(_ bytes: S, plusAsSpace: Bool) -> String where S.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let first = bytes.index(after: index)
                if first != bytes.endIndex {
                    let second = bytes.index(after: first)
                    if second != bytes.endIndex, let high = hexValue(bytes[first]), let low = hexValue(bytes[second]) {
                        out.append(high << 4 | low)
                        index = bytes.index(after: second)
                        continue
                    }
                }
                out.append(byte)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else {
                out.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Splits a raw query string into decoded name/value pairs, in order (`a&b=` gives `a` and `b`
    /// with empty values).
    package static func queryPairs(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        var pairs: [(name: String, value: String)] = []
        for part in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = part.firstIndex(of: UInt8(ascii: "=")) {
                pairs.append(
                    (
                        decodeQueryComponent(part[part.startIndex..<equals]),
                        decodeQueryComponent(part[part.index(after: equals)...])
                    ))
            } else {
                pairs.append((decodeQueryComponent(part), ""))
            }
        }
        return pairs
    }
}
