/// The package's one JSON writer and its one string escaper: journal lines, admin answers,
/// rendered templates and ``JSONValue/jsonText`` all come out of here, so an escaping rule is
/// fixed in one place.
///
/// A growable byte buffer, reusable from one request to the next (the journal keeps one and
/// ``reset()``s it per line). Writing goes through a raw pointer, so appending a byte is a store
/// and appending a run is one `memcpy`; the finished text is copied out once, at its exact size.
/// Hot stored properties are `@exclusivity(unchecked)`: a writer belongs to one thread at a time
/// and no access overlaps another, so the runtime's dynamic exclusivity check (~65 instructions
/// per access, several per request) buys nothing.
/// The request path's methods are `@inlinable`: the journal encoder in UnderstudyCore makes some
/// twenty appends per line, and a cross-module call each would cost the request path.
public final class JSONWriter {
    @usableFromInline @exclusivity(unchecked) var base: UnsafeMutablePointer<UInt8>
    @usableFromInline @exclusivity(unchecked) var capacity: Int
    @usableFromInline @exclusivity(unchecked) var written = 0

    /// A writer with room for `capacity` bytes before it grows.
    public init(capacity: Int = 1024) {
        self.capacity = max(64, capacity)
        self.base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// Bytes written since the last ``reset()``.
    @inlinable
    public var count: Int { written }

    /// Forgets what was written, keeping the storage.
    @inlinable
    public func reset() {
        written = 0
    }

    /// The bytes written, as a new array of exactly that size.
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: written))
    }

    /// The bytes written, in `spare`'s storage when it is held only here and fits them without
    /// much slack, else as ``bytes``. A full journal evicts a line for every line it takes in;
    /// handing the evicted line's storage to the next one spares the allocator a free and a
    /// malloc of a few hundred bytes on memory that has gone cold (glibc sorts such chunks
    /// through its unsorted bin: measured as a large share of the daemon's cycles).
    public func bytes(reusing spare: consuming [UInt8]) -> [UInt8] {
        var line = spare
        guard line.capacity >= written, line.capacity <= written + written / 2 + 64 else { return bytes }
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: UnsafeBufferPointer(start: base, count: written))
        return line
    }

    /// Replaces `array`'s contents with the bytes written from `offset` on (in its storage when
    /// that fits), for a caller that keeps a fragment to append again later.
    public func copyBytes(from offset: Int, into array: inout [UInt8]) {
        array.removeAll(keepingCapacity: true)
        array.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: max(0, written - offset)))
    }

    /// Makes room for `extra` more bytes.
    @inlinable @inline(__always)
    public func reserve(_ extra: Int) {
        if written + extra > capacity { grow(to: written + extra) }
    }

    @usableFromInline
    func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: written)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    public func append(_ byte: UInt8) {
        reserve(1)
        base[written] = byte
        written += 1
    }

    // The appends are always inlined: the encoder makes some twenty of them per line, and a
    // call each (the optimizer's choice once the encoder grew) cost about 50 instructions.
    /// Appends the bytes as they are.
    @inlinable @inline(__always)
    public func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + written).update(from: source, count: bytes.count)
        written += bytes.count
    }

    /// Appends the text's UTF-8 as it is (no escaping).
    @inlinable @inline(__always)
    public func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends the text's UTF-8 as it is (no escaping).
    @inlinable
    public func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// `text` as a JSON string (quotes included).
    @inlinable
    public func appendJSONString(_ text: String) {
        var text = text
        text.withUTF8 { appendJSONString(utf8: $0) }
    }

    /// UTF-8 bytes as a JSON string (quotes included). Eight bytes at a time: a word with nothing
    /// to escape (no control byte, `"`, `\\` or DEL) is copied whole (and lower-cased with bit
    /// arithmetic when asked); only words holding such a byte go byte by byte. The last one to
    /// seven bytes (all of most header names and values) go as one word too, gathered by
    /// overlapping loads that stay inside the string (see `tailWord(_:_:_:)`).
    @inlinable @inline(__always)
    public func appendJSONString(utf8: UnsafeBufferPointer<UInt8>, lowercasingASCII: Bool = false) {
        // Worst case every byte becomes `\u00XX`; reserving for it keeps the loop free of checks
        // (and 8 more, for the whole word the tail stores).
        reserve(utf8.count * 6 + 10)
        var out = base + written
        out.pointee = UInt8(ascii: "\"")
        out += 1
        let n = utf8.count
        if let source = utf8.baseAddress {
            var i = 0
            while i + 8 <= n {
                var word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                if Self.needsEscaping(word) {
                    for k in i..<(i + 8) { out = Self.appendByte(source[k], lowercasing: lowercasingASCII, at: out) }
                } else {
                    if lowercasingASCII { word = Self.lowercased(word) }
                    UnsafeMutableRawPointer(out).storeBytes(of: word, as: UInt64.self)
                    out += 8
                }
                i += 8
            }
            if i < n {
                var word = Self.tailWord(source, i, n)
                if Self.needsEscaping(word) {
                    while i < n {
                        out = Self.appendByte(source[i], lowercasing: lowercasingASCII, at: out)
                        i += 1
                    }
                } else {
                    if lowercasingASCII { word = Self.lowercased(word) }
                    UnsafeMutableRawPointer(out).storeBytes(of: word, as: UInt64.self)
                    out += n - i
                }
            }
        }
        out.pointee = UInt8(ascii: "\"")
        out += 1
        written = out - base
    }

    /// Bytes `i..<n` of `source` (one to seven of them) in the low bytes of a word, the rest
    /// filled with `a` (which needs no escaping and is already lower case). Reads only inside
    /// `source[0..<n]`: the last eight bytes when the string has eight, else two overlapping
    /// loads of four or two bytes.
    @inlinable @inline(__always)
    static func tailWord(_ source: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> UInt64 {
        let r = n - i
        let raw = UnsafeRawPointer(source)
        var word: UInt64
        if n >= 8 {
            word = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) >> UInt64((8 - r) * 8)
        } else if r >= 4 {
            let low = UInt64(raw.loadUnaligned(fromByteOffset: i, as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
            word = low | high << UInt64((r - 4) * 8)
        } else if r >= 2 {
            let low = UInt64(raw.loadUnaligned(fromByteOffset: i, as: UInt16.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self))
            word = low | high << UInt64((r - 2) * 8)
        } else {
            word = UInt64(source[i])
        }
        let kept: UInt64 = (1 << UInt64(r * 8)) &- 1
        return word | (0x6161_6161_6161_6161 & ~kept)
    }

    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// Whether any byte of `word` is below 0x20, `"`, `\\` or DEL (0x7F).
    @inlinable @inline(__always)
    static func needsEscaping(_ word: UInt64) -> Bool {
        // For each test a byte's high bit ends up set exactly when the test holds for some byte
        // (the classic "has zero byte" / "has byte less than" word tricks).
        let control = (word &- 0x20 &* ones) & ~word & highs
        let quote = word ^ (0x22 &* ones), backslash = word ^ (0x5C &* ones), delete = word ^ (0x7F &* ones)
        let matches = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((delete &- ones) & ~delete)
        return (control | (matches & highs)) != 0
    }

    /// `word` with its ASCII capitals lower-cased (other bytes untouched).
    @inlinable @inline(__always)
    static func lowercased(_ word: UInt64) -> UInt64 {
        let low7 = word & ~highs
        let atLeastA = low7 &+ (0x80 - 0x41) &* ones  // high bit set where low7 >= "A"
        let aboveZ = low7 &+ (0x80 - 0x5B) &* ones  // high bit set where low7 > "Z"
        let upper = atLeastA & ~aboveZ & ~word & highs  // and the byte itself is ASCII
        return word | (upper >> 2)  // 0x80 >> 2 == 0x20
    }

    /// One byte as JSON string content at `out`; returns the position after it.
    @inlinable @inline(__always)
    static func appendByte(_ byte: UInt8, lowercasing: Bool, at out: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        var byte = byte
        if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F {
            if lowercasing && byte >= 65 && byte <= 90 { byte += 32 }
            out.pointee = byte
            return out + 1
        }
        out[0] = 0x5C
        switch byte {
        case 0x22:
            out[1] = 0x22
            return out + 2
        case 0x5C:
            out[1] = 0x5C
            return out + 2
        case 0x0A:
            out[1] = UInt8(ascii: "n")
            return out + 2
        case 0x0D:
            out[1] = UInt8(ascii: "r")
            return out + 2
        case 0x09:
            out[1] = UInt8(ascii: "t")
            return out + 2
        default:
            out[1] = UInt8(ascii: "u")
            out[2] = UInt8(ascii: "0")
            out[3] = UInt8(ascii: "0")
            out[4] = hexDigit(byte >> 4)
            out[5] = hexDigit(byte & 0xF)
            return out + 6
        }
    }

    /// A key and its colon, preceded by a comma unless `first`.
    @inlinable
    public func key(_ name: StaticString, first: Bool = false) {
        reserve(name.utf8CodeUnitCount + 4)
        if !first {
            base[written] = UInt8(ascii: ",")
            written += 1
        }
        base[written] = UInt8(ascii: "\"")
        written += 1
        (base + written).update(from: name.utf8Start, count: name.utf8CodeUnitCount)
        written += name.utf8CodeUnitCount
        base[written] = UInt8(ascii: "\"")
        base[written + 1] = UInt8(ascii: ":")
        written += 2
    }

    /// A non-negative integer, at least `minimumWidth` digits (zero-padded). The digits are
    /// written two at a time from a table, backwards from the end of the number, whose length is
    /// found with at most a few comparisons (several numbers go into every journal line).
    @inlinable
    public func digits(_ value: UInt64, minimumWidth: Int = 1) {
        let length = max(Self.decimalLength(value), minimumWidth)
        reserve(length)
        let pairs = Self.digitPairs.utf8Start
        var rest = value
        var position = base + written + length
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            position -= 2
            position[0] = pairs[pair]
            position[1] = pairs[pair &+ 1]
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) &* 2
            position -= 2
            position[0] = pairs[pair]
            position[1] = pairs[pair &+ 1]
        } else {
            position -= 1
            position[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        let start = base + written
        while position > start {
            position -= 1
            position[0] = UInt8(ascii: "0")
        }
        written += length
    }

    /// How many decimal digits `value` has (1 for 0).
    @inlinable @inline(__always)
    static func decimalLength(_ value: UInt64) -> Int {
        if value < 10_000 {
            return value < 100 ? (value < 10 ? 1 : 2) : (value < 1_000 ? 3 : 4)
        }
        if value < 100_000_000 {
            return value < 1_000_000 ? (value < 100_000 ? 5 : 6) : (value < 10_000_000 ? 7 : 8)
        }
        var length = 9
        var bound: UInt64 = 1_000_000_000
        while length < 20 && value >= bound {
            length += 1
            bound = bound &* 10
        }
        return length
    }

    /// A three-digit number straight from the table: a status (100-999), or with `padded` the
    /// milliseconds of a timestamp (0-999, as `007`), in every line. Anything else is written
    /// by ``int(_:)`` (so a status outside 100-999 comes out as before).
    @inlinable @inline(__always)
    public func threeDigits(_ value: Int, padded: Bool = false) {
        guard value >= (padded ? 0 : 100) && value <= 999 else { return int(value) }
        reserve(3)
        let pairs = Self.digitPairs.utf8Start
        let pair = (value % 100) &* 2
        base[written] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 100)
        base[written + 1] = pairs[pair]
        base[written + 2] = pairs[pair &+ 1]
        written += 3
    }

    /// Thousandths as a decimal with three places: `micro` 1234567 is `1234.567`. One pass of
    /// ``digits(_:minimumWidth:)`` (at least four digits), then the last three move up one byte
    /// for the point.
    @inlinable
    public func thousandths(_ value: UInt64) {
        digits(value, minimumWidth: 4)
        reserve(1)
        let end = base + written
        end[0] = end[-1]
        end[-1] = end[-2]
        end[-2] = end[-3]
        end[-3] = UInt8(ascii: ".")
        written += 1
    }

    /// "00", "01", … "99" back to back.
    @inlinable static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// Appends an integer in decimal.
    @inlinable @inline(__always)
    public func int(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        digits(UInt64(value.magnitude))
    }

    /// A non-negative number: whole values as integers (`300`), others as Swift prints them
    /// (`12.5`); anything not finite as 0.
    @inlinable
    public func number(_ value: Double) {
        guard value.isFinite, value >= 0 else { return append(UInt8(ascii: "0")) }
        if value == value.rounded(.down) && value < 1e15 {
            digits(UInt64(value))
        } else {
            append(String(value))
        }
    }

    /// Appends a JSON string, or `null` for `nil`.
    @inlinable
    public func optionalJSONString(_ text: String?) {
        if let text { appendJSONString(text) } else { append("null" as StaticString) }
    }

    /// Appends `true` or `false`.
    @inlinable
    public func bool(_ value: Bool) {
        if value { append("true" as StaticString) } else { append("false" as StaticString) }
    }

    @inlinable @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

@available(*, unavailable)
extension JSONWriter: Sendable {}
