/// An incremental UTF-8 validator (RFC 3629, as RFC 6455 §8.1 requires of text): fed byte by byte
/// across any number of frames, it refuses a byte as soon as no valid sequence can continue with it
/// (overlong forms, surrogates, code points above U+10FFFF, stray continuation bytes), so a text
/// message is failed at its first bad byte, and ``isAtCodePointBoundary`` says whether the bytes so
/// far end a code point (a message's last frame must).
public struct UTF8Validator: Sendable, Equatable {
    /// Continuation bytes the current code point still needs.
    private var remaining: UInt8 = 0
    /// The range the next continuation byte must fall in: narrower than 0x80...0xBF right after the
    /// lead bytes E0, ED, F0 and F4, which is how overlongs, surrogates and > U+10FFFF are refused.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// A validator at the start of a text.
    public init() {}

    /// True when the bytes consumed so far end on a code point boundary (nothing is pending).
    public var isAtCodePointBoundary: Bool { remaining == 0 }

    /// Consumes one byte; false when it cannot continue valid UTF-8 (the validator is then spent).
    public mutating func consume(_ byte: UInt8) -> Bool {
        if remaining == 0 {
            switch byte {
            case 0x00...0x7F: return true
            case 0xC2...0xDF: expect(1, 0x80, 0xBF)
            case 0xE0: expect(2, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: expect(2, 0x80, 0xBF)
            case 0xED: expect(2, 0x80, 0x9F)
            case 0xF0: expect(3, 0x90, 0xBF)
            case 0xF1...0xF3: expect(3, 0x80, 0xBF)
            case 0xF4: expect(3, 0x80, 0x8F)
            default: return false
            }
            return true
        }
        guard byte >= lower, byte <= upper else { return false }
        remaining -= 1
        lower = 0x80
        upper = 0xBF
        return true
    }

    /// Consumes every byte of `bytes`; false at the first that cannot continue valid UTF-8.
    public mutating func consume(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes where !consume(byte) { return false }
        return true
    }

    /// Whether `bytes` is complete, valid UTF-8 on its own.
    public static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var validator = UTF8Validator()
        return validator.consume(bytes) && validator.isAtCodePointBoundary
    }

    private mutating func expect(_ count: UInt8, _ lower: UInt8, _ upper: UInt8) {
        remaining = count
        self.lower = lower
        self.upper = upper
    }
}
