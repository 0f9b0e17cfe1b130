/// How query items (and form bodies) are written on the wire.
///
/// Names and values are UTF-8, percent-encoded except for the RFC 3986 unreserved characters
/// `A–Z a–z 0–9 - . _ ~`. So a space is `%20`, `+` is `%2B`, and `& = ? / # %` are encoded too:
/// a form decoder (which reads `+` as a space) and an RFC 3986 decoder read back exactly the
/// value given. `URLComponents.queryItems` leaves `+` as it is, which servers then read as a
/// space; this does not. An item whose value is `nil` is written as its bare name (`flag`).
/// Items keep their order, and repeated names stay repeated.
public enum QueryItemEncoding {
    /// `items` as `name=value&name=value`, encoded as described above.
    public static func encode(_ items: [URLQueryItem]) -> String {
        items.map { item in
            let name = percentEncode(item.name)
            return item.value.map { "\(name)=\(percentEncode($0))" } ?? name
        }
        .joined(separator: "&")
    }

    /// `text` with every byte outside `A–Z a–z 0–9 - . _ ~` written as `%XX`.
    public static func percentEncode(_ text: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return encoded
    }
}
