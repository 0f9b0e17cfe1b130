/// The shorthand classes `\d \w \s`, with ICU's Unicode meaning beyond ASCII.
enum RegexBuiltinClass: Sendable {
    case digit, word, space

    /// Whether `scalar` belongs to the class.
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            let byte = UInt8(value)
            switch self {
            case .digit: return byte >= 0x30 && byte <= 0x39
            case .word: return Self.isASCIIWord(byte)
            case .space: return byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
            }
        }
        let properties = scalar.properties
        switch self {
        case .digit:
            return properties.generalCategory == .decimalNumber
        case .word:
            if value == 0x200C || value == 0x200D || properties.isAlphabetic { return true }
            switch properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
            default: return false
            }
        case .space:
            return properties.isWhitespace
        }
    }

    static func isASCIIWord(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F
    }
}
