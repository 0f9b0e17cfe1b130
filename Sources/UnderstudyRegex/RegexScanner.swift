/// A position in UTF-8 text with the scalars on either side, for the matcher and its assertions.
/// The text is valid UTF-8 (it comes from a `String`), so decoding needs no error paths.
struct RegexScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The byte offset of `current`.
    private(set) var offset = 0
    private var width = 0
    /// The scalar at the position; nil at the end.
    private(set) var current: Unicode.Scalar?
    /// The scalar before the position; nil at the start.
    private(set) var previous: Unicode.Scalar?

    /// Starts at byte `offset`, which must begin a scalar.
    init(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
        if offset > 0 { previous = Self.scalar(endingAt: offset, in: bytes) }
        decode()
    }

    private static func scalar(endingAt end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        var start = end - 1
        while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        var decoder = RegexScanner(bytes, from: 0)
        decoder.offset = start
        decoder.decode()
        return decoder.current
    }

    /// Moves past the current scalar.
    @inline(__always)
    mutating func advance() {
        previous = current
        offset += width
        decode()
    }

    @inline(__always)
    private mutating func decode() {
        guard offset < bytes.count else {
            current = nil
            width = 0
            return
        }
        let lead = bytes[offset]
        if lead < 0x80 {
            current = Unicode.Scalar(lead)
            width = 1
            return
        }
        var value: UInt32
        if lead < 0xE0 {
            width = 2
            value = UInt32(lead & 0x1F)
        } else if lead < 0xF0 {
            width = 3
            value = UInt32(lead & 0x0F)
        } else {
            width = 4
            value = UInt32(lead & 0x07)
        }
        width = min(width, bytes.count - offset)
        for index in 1..<max(width, 1) {
            value = value << 6 | UInt32(bytes[offset + index] & 0x3F)
        }
        current = Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// Whether `assertion` holds between `previous` and `current`.
    func holds(_ assertion: RegexAssertion) -> Bool {
        switch assertion {
        case .start: return offset == 0
        case .end: return current == nil
        case .lineStart:
            guard let previous else { return true }
            // Not between the \r and \n of one line break.
            return Self.isLineTerminator(previous) && !(previous == "\r" && current == "\n")
        case .lineEnd:
            guard let current else { return true }
            return Self.isLineTerminator(current) && !(current == "\n" && previous == "\r")
        case .endOrFinalTerminator: return current == nil || isBeforeFinalTerminator
        case .wordBoundary: return Self.isWord(previous) != Self.isWord(current)
        case .notWordBoundary: return Self.isWord(previous) == Self.isWord(current)
        }
    }

    /// Whether only one line terminator (`\r\n` counting as one) follows.
    private var isBeforeFinalTerminator: Bool {
        guard let current, Self.isLineTerminator(current) else { return false }
        let rest = bytes.count - offset
        if rest == width { return true }
        return current == "\r" && rest == 2 && bytes[offset + 1] == 0x0A
    }

    static func isLineTerminator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    private static func isWord(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return RegexBuiltinClass.word.contains(scalar)
    }
}
