extension EditDistance {
    /// Byte-wise Levenshtein distance capped at `limit`, cheap enough to rank thousands of stub
    /// paths: strings whose lengths differ by `limit` or more are not compared at all.
    package static func boundedDistance(_ a: String, _ b: String, limit: Int, ignoringASCIICase: Bool = false) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in boundedDistance(x, y, limit: limit, ignoringASCIICase: ignoringASCIICase) }
        }
    }

    /// The same over bytes. Only the diagonal band `|i - j| < limit` is computed (a cell outside
    /// it is at least `limit`), so the cost is O(length × limit), not O(length²).
    package static func boundedDistance(
        _ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, limit: Int,
        ignoringASCIICase: Bool = false
    ) -> Int {
        guard limit > 0 else { return 0 }
        if abs(x.count - y.count) >= limit { return limit }
        if x.isEmpty || y.isEmpty { return min(limit, max(x.count, y.count)) }
        @inline(__always) func fold(_ byte: UInt8) -> UInt8 {
            ignoringASCIICase && byte >= 65 && byte <= 90 ? byte | 0x20 : byte
        }
        // Two rows on the stack, through plain pointers (no slices, whose generic metadata costs
        // more than the arithmetic): this runs for many stubs on every unmatched request.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (y.count + 1)) { rows in
            var previous = rows.baseAddress!
            var current = previous + (y.count + 1)
            for j in 0...y.count { previous[j] = min(j, limit) }
            let band = limit - 1
            for i in 1...x.count {
                let low = max(1, i - band), high = min(y.count, i + band)
                current[low - 1] = low == 1 ? min(i, limit) : limit
                var rowMinimum = current[low - 1]
                let xi = fold(x[i - 1])
                var j = low
                while j <= high {
                    let substitution = previous[j - 1] + (xi == fold(y[j - 1]) ? 0 : 1)
                    let value = min(previous[j] + 1, current[j - 1] + 1, substitution, limit)
                    current[j] = value
                    if value < rowMinimum { rowMinimum = value }
                    j += 1
                }
                // The next row reads one cell past this row's band.
                if high < y.count { current[high + 1] = limit }
                if rowMinimum >= limit { return limit }
                swap(&previous, &current)
            }
            return min(limit, previous[y.count])
        }
    }

    /// `distance / max(length)` in 0...1 (0: equal, 1: nothing in common) when it is below
    /// `bound`; `nil` as soon as it cannot be. Strings `maximumEdits` or more edits apart count as
    /// unrelated (1), which caps the work at O(length × maximumEdits) whatever the bound.
    package static func normalizedDistance(
        _ a: String, _ b: String, below bound: Double, maximumEdits: Int = .max,
        ignoringASCIICase: Bool = false
    ) -> Double? {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                normalizedDistance(x, y, below: bound, maximumEdits: maximumEdits, ignoringASCIICase: ignoringASCIICase)
            }
        }
    }

    /// The same over bytes.
    package static func normalizedDistance(
        _ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, below bound: Double,
        maximumEdits: Int = .max, ignoringASCIICase: Bool = false
    ) -> Double? {
        let longest = max(x.count, y.count)
        guard longest > 0 else { return bound > 0 ? 0 : nil }
        // The most edits whose normalized distance is still below the bound, and within the cap.
        let allowed = bound > 1 ? longest : Int((bound * Double(longest)).rounded(.up)) - 1
        let counted = min(allowed, maximumEdits - 1)
        guard counted >= 0 else { return allowed >= 0 && bound > 1 ? 1 : nil }
        // Cheap lower bounds first (lengths, then byte counts): most far-apart pairs never reach
        // the table.
        let edits =
            abs(x.count - y.count) > counted || bagDistance(x, y) > counted
            ? counted + 1
            : boundedDistance(x, y, limit: counted + 1, ignoringASCIICase: ignoringASCIICase)
        if edits <= counted { return Double(edits) / Double(longest) }
        // Past the cap (not merely past the bound): unrelated.
        return counted < allowed && bound > 1 ? 1 : nil
    }

    /// A lower bound on the edit distance in linear time: one edit changes the count of at most
    /// one byte up and one down, so the larger of the surpluses (by byte value modulo 32, which
    /// only lowers the bound) is never more than the distance.
    /// Letters in either case fall in the same bucket, so the bound also holds ignoring case.
    package static func bagDistance(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        // A fixed-size tuple on the stack, walked through one pointer: no allocation, no checks.
        var counts:
            (
                Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64,
                Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &counts) { raw in
            let count = raw.baseAddress!.assumingMemoryBound(to: Int32.self)  // 32 counters
            if let base = x.baseAddress {
                for offset in 0..<x.count { count[Int(base[offset] & 31)] &+= 1 }
            }
            if let base = y.baseAddress {
                for offset in 0..<y.count { count[Int(base[offset] & 31)] &-= 1 }
            }
            var surplus = 0, deficit = 0
            for bucket in 0..<32 {
                let difference = Int(count[bucket])
                if difference > 0 { surplus += difference } else { deficit -= difference }
            }
            return max(surplus, deficit)
        }
    }
}
