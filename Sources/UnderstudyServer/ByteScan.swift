/// Searches of short byte runs eight bytes at a time, for the request parsers
/// (``RequestHeadParser``, ``ChunkedBodyReader``), which look at every line of every request.
///
/// The runs it searches are a few dozen bytes (a header line, a request target), where a call
/// to libc's `memchr` costs more in its call and set-up than the search itself. Loads are
/// unaligned and never reach outside the run.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first `byte` in `base[from..<end]`, or nil.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
        // Wrapping arithmetic: indices are within one buffer, far from overflowing, and the
        // overflow checks would cost as much as the search.
        let raw = UnsafeRawPointer(base)
        let pattern = UInt64(byte) &* ones
        var index = from
        while index &+ 8 <= end {
            if let found = match(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self), pattern) {
                return index &+ found
            }
            index &+= 8
        }
        guard index < end else { return nil }
        if end &- from >= 8 {
            // The last few bytes, as the eight that end the run: those before `index` are known
            // not to match, so the first match in the word is the first in the run.
            let last = end &- 8
            return match(raw.loadUnaligned(fromByteOffset: last, as: UInt64.self), pattern).map { last &+ $0 }
        }
        while index < end {
            if base[index] == byte { return index }
            index &+= 1
        }
        return nil
    }

    /// The index of the first byte in `base[from..<end]` that is `byte` or `other`, or nil (one
    /// pass where two searches would each load the same words).
    @inline(__always)
    static func firstIndex(of byte: UInt8, or other: UInt8, in base: UnsafePointer<UInt8>, from: Int, to end: Int)
        -> Int?
    {
        let raw = UnsafeRawPointer(base)
        let pattern = UInt64(byte) &* ones, otherPattern = UInt64(other) &* ones
        var index = from
        while index &+ 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if let found = match(word, pattern, otherPattern) { return index &+ found }
            index &+= 8
        }
        guard index < end else { return nil }
        if end &- from >= 8 {
            let last = end &- 8  // see firstIndex(of:in:from:to:)
            return match(raw.loadUnaligned(fromByteOffset: last, as: UInt64.self), pattern, otherPattern).map {
                last &+ $0
            }
        }
        while index < end {
            if base[index] == byte || base[index] == other { return index }
            index &+= 1
        }
        return nil
    }

    /// The offset of the first byte of `word` equal to either repeated byte (see
    /// ``match(_:_:)``: each test's lowest set bit is exact, so the lower of the two is).
    @inline(__always)
    private static func match(_ word: UInt64, _ pattern: UInt64, _ otherPattern: UInt64) -> Int? {
        let bytes = UInt64(littleEndian: word) ^ pattern, others = UInt64(littleEndian: word) ^ otherPattern
        let zero = ((bytes &- ones) & ~bytes | (others &- ones) & ~others) & highBits
        return zero == 0 ? nil : zero.trailingZeroBitCount &>> 3
    }

    /// The offset of the first byte of `word` (in memory order) equal to the byte repeated in
    /// `pattern`. The classic zero-byte test: its lowest set bit is exact (a borrow only carries
    /// upwards from a zero byte).
    @inline(__always)
    private static func match(_ word: UInt64, _ pattern: UInt64) -> Int? {
        let bytes = UInt64(littleEndian: word) ^ pattern
        let zero = (bytes &- ones) & ~bytes & highBits
        return zero == 0 ? nil : zero.trailingZeroBitCount &>> 3
    }

    /// Whether no byte of `base[0..<count]` has its high bit set.
    @inline(__always)
    static func isASCII(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        let raw = UnsafeRawPointer(base)
        var bits: UInt64 = 0
        if count >= 8 {
            var index = 0
            while index + 8 < count {
                bits |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            bits |= raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)  // may overlap
        } else {
            for index in 0..<count { bits |= UInt64(base[index]) }
        }
        return bits & highBits == 0
    }
}
