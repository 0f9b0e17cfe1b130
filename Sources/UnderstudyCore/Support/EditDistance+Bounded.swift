extension EditDistance {
    /// Byte-wise Levenshtein distance capped at `limit`, cheap enough to rank thousands of stub
    /// paths: strings whose lengths differ by `limit` or more are not compared at all.
    static func boundedDistance(_ a: String, _ b: String, limit: Int) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                if abs(x.count - y.count) >= limit { return limit }
                if x.isEmpty || y.isEmpty { return min(limit, max(x.count, y.count)) }
                // Two rows on the stack: this runs once per loaded stub for every unmatched request.
                return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (y.count + 1)) { rows in
                    var previous = UnsafeMutableBufferPointer(rebasing: rows[0...y.count])
                    var current = UnsafeMutableBufferPointer(rebasing: rows[(y.count + 1)...])
                    for j in 0...y.count { previous[j] = j }
                    for i in 1...x.count {
                        current[0] = i
                        var rowMinimum = i
                        let xi = x[i - 1]
                        for j in 1...y.count {
                            let substitution = previous[j - 1] + (xi == y[j - 1] ? 0 : 1)
                            let value = min(previous[j] + 1, current[j - 1] + 1, substitution)
                            current[j] = value
                            if value < rowMinimum { rowMinimum = value }
                        }
                        if rowMinimum >= limit { return limit }
                        swap(&previous, &current)
                    }
                    return min(limit, previous[y.count])
                }
            }
        }
    }
}
