/// Typo suggestions for unknown keys and enum values.
package enum EditDistance {
    /// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), ignoring
    /// ASCII case, so `staus`, `stauts` and `Status` are all close to `status`.
    package static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous2 = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    best = min(best, previous2[j - 2] + 1)
                }
                current[j] = best
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[y.count]
    }

    /// The closest candidate within distance 2 (and closer than the word's own length, so short
    /// words are not "corrected" into unrelated ones); the earliest candidate wins a tie.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let d = distance(word, candidate)
            guard d <= 2, d < max(word.count, 2) || d == 0 else { continue }
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        return best?.candidate
    }
}
