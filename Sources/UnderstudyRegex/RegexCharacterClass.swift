/// A set of scalars: a 128-bit map for ASCII (the common case, one test) plus ranges and
/// shorthand classes for the rest.
struct RegexCharacterClass: Sendable {
    private var asciiLow: UInt64 = 0
    private var asciiHigh: UInt64 = 0
    private var ranges: [ClosedRange<UInt32>] = []
    /// Shorthand classes for scalars beyond ASCII; `negated` for `\D \W \S`.
    private var builtins: [(RegexBuiltinClass, negated: Bool)] = []
    /// Under `(?i)`: a scalar belongs if any of its case forms does.
    private var ignoresCase = false
    /// `[^...]`.
    var isNegated = false

    /// Whether `scalar` is in the set.
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return containsASCII(UInt8(value)) }
        var found = containsBeyondASCII(scalar)
        if !found && ignoresCase {
            found = Self.caseForms(of: scalar).contains { form in
                form.value < 0x80 ? hasASCIIBit(UInt8(form.value)) : containsBeyondASCII(form)
            }
        }
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
        hasASCIIBit(byte) != isNegated
    }

    private func hasASCIIBit(_ byte: UInt8) -> Bool {
        byte < 64 ? (asciiLow >> UInt64(byte)) & 1 == 1 : (asciiHigh >> UInt64(byte - 64)) & 1 == 1
    }

    private func containsBeyondASCII(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return ranges.contains { $0.contains(value) } || builtins.contains { $0.0.contains(scalar) != $0.negated }
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

    /// Makes membership ignore case; call once every member is in.
    mutating func ignoreCase() {
        ignoresCase = true
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") where hasASCIIBit(byte) || hasASCIIBit(byte | 0x20) {
            insertASCII(byte)
            insertASCII(byte | 0x20)
        }
        // ASCII letters also have non-ASCII case partners in ranges (K and KELVIN SIGN, s and LONG S).
        for byte in UInt8(0)..<0x80 where !hasASCIIBit(byte) {
            let scalar = Unicode.Scalar(byte)
            if Self.caseForms(of: scalar).contains(where: { $0.value >= 0x80 && containsBeyondASCII($0) }) {
                insertASCII(byte)
            }
        }
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

    /// One scalar and its other cases, for a literal under `(?i)`.
    static func caseless(_ scalar: Unicode.Scalar) -> RegexCharacterClass {
        var set = RegexCharacterClass()
        set.insert(scalar.value...scalar.value)
        set.ignoreCase()
        return set
    }

    /// The scalar's single-scalar lower, upper and title case forms (simple case mapping).
    static func caseForms(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        let properties = scalar.properties
        var forms: [Unicode.Scalar] = []
        for mapping in [properties.lowercaseMapping, properties.uppercaseMapping, properties.titlecaseMapping] {
            let scalars = mapping.unicodeScalars
            if scalars.count == 1, let form = scalars.first, form != scalar, !forms.contains(form) {
                forms.append(form)
            }
        }
        return forms
    }
}
