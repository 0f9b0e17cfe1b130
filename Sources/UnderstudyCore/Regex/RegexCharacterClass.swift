/// A set of scalars: a 128-bit map for ASCII (the common case, one test) plus ranges and
/// shorthand classes for the rest.
struct RegexCharacterClass: Sendable {
    private var asciiLow: UInt64 = 0
    private var asciiHigh: UInt64 = 0
    private var ranges: [ClosedRange<UInt32>] = []
    /// Shorthand classes for scalars beyond ASCII; `negated` for `\D \W \S`.
    private var builtins: [(RegexBuiltinClass, negated: Bool)] = []
    /// `[^...]`.
    var isNegated = false

    /// Whether `scalar` is in the set.
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return containsASCII(UInt8(value)) }
        var found = ranges.contains { $0.contains(value) }
        if !found { found = builtins.contains { $0.0.contains(scalar) != $0.negated } }
        return found != isNegated
    }

    /// The ASCII part with negation applied: bit `b` of `low` (b < 64) or `high` says whether
    /// the ASCII scalar `b` (or `b + 64`) is in the set.
    var asciiMap: (low: UInt64, high: UInt64) {
        isNegated ? (~asciiLow, ~asciiHigh) : (asciiLow, asciiHigh)
    }

    /// Whether the ASCII `byte` is in the set.
    @inline(__always)
    func containsASCII(_ byte: UInt8) -> Bool {
        let found = byte < 64 ? (asciiLow >> UInt64(byte)) & 1 == 1 : (asciiHigh >> UInt64(byte - 64)) & 1 == 1
        return found != isNegated
    }

    mutating func insert(_ range: ClosedRange<UInt32>) {
        var low = range.lowerBound
        while low <= range.upperBound && low < 0x80 {
            insertASCII(UInt8(low))
            low += 1
        }
        if low <= range.upperBound { ranges.append(low...range.upperBound) }
    }

    mutating func insert(_ builtin: RegexBuiltinClass, negated: Bool) {
        for byte in UInt8(0)..<0x80 where builtin.contains(Unicode.Scalar(byte)) != negated {
            insertASCII(byte)
        }
        builtins.append((builtin, negated))
    }

    private mutating func insertASCII(_ byte: UInt8) {
        if byte < 64 { asciiLow |= 1 << UInt64(byte) } else { asciiHigh |= 1 << UInt64(byte - 64) }
    }

    /// `\d`, `\W`... as a class of its own.
    static func builtin(_ builtin: RegexBuiltinClass, negated: Bool) -> RegexCharacterClass {
        var set = RegexCharacterClass()
        set.insert(builtin, negated: negated)
        return set
    }
}
