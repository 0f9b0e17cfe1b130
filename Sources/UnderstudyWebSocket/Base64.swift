#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Base64 for the handshake's two values, through FoundationEssentials' codec (the one the rest of
/// the package uses: `{"binary": …}` matchers, the journal's `bodyBase64`).
enum Base64 {
    /// `bytes` as padded base64: the accept value.
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// Whether `key` is a client's nonce as §4.1 makes it: 16 bytes in canonical base64, which is
    /// always 22 characters of the alphabet, the last with its 4 unused bits zero, then `==`.
    /// Checked by its shape first: FoundationEssentials' decoder takes padding in the middle
    /// (`AA=A` decodes to two bytes), so it only confirms the length here.
    static func isSixteenByteKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "="),
            let last = sextet(bytes[21]), last & 0x0F == 0,
            bytes[..<21].allSatisfy({ sextet($0) != nil })
        else { return false }
        return Data(base64Encoded: key)?.count == 16
    }

    /// The value of one base64 alphabet character (RFC 4648 §4), or nil.
    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
