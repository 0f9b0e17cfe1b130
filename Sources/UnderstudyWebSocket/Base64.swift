/// Base64 (RFC 4648 §4, padded) for the handshake's two values, without Foundation: the key a
/// client sends (decoded, to check it is 16 bytes) and the accept value the server answers with.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` as padded base64.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var word: UInt32 = 0
            for (position, byte) in chunk.enumerated() { word |= UInt32(byte) << (16 - 8 * position) }
            for position in 0..<4 {
                output.append(
                    position <= chunk.count ? alphabet[Int(word >> (18 - 6 * position)) & 0x3F] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of strict, padded base64 (length a multiple of 4, padding only at the end, no
    /// whitespace, unused bits zero), or nil.
    static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        for start in stride(from: 0, to: characters.count, by: 4) {
            let quad = characters[start..<start + 4]
            let padding = quad.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            guard padding <= 2, padding == 0 || start + 4 == characters.count else { return nil }
            var word: UInt32 = 0
            for character in quad.prefix(4 - padding) {
                guard let value = value(of: character) else { return nil }
                word = word << 6 | value
            }
            word <<= 6 * UInt32(padding)
            let bytes = [UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)]
            // Bits past the last whole byte must be zero (a canonical encoding).
            if padding > 0, bytes[(3 - padding)...].contains(where: { $0 != 0 }) { return nil }
            output.append(contentsOf: bytes.prefix(3 - padding))
        }
        return output
    }

    private static func value(of character: UInt8) -> UInt32? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
