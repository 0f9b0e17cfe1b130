extension String {
    /// Whether `needle` occurs in `self`, comparing UTF-8 bytes. Used on the request path instead
    /// of Foundation's locale-aware search, which is much slower and not what HTTP means by "contains".
    func containsBytes(_ needle: String) -> Bool {
        if needle.isEmpty { return true }
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { h in
            needle.withUTF8 { n in
                guard n.count <= h.count else { return false }
                let first = n[0]
                var i = 0
                let last = h.count - n.count
                while i <= last {
                    if h[i] == first {
                        var j = 1
                        while j < n.count && h[i + j] == n[j] { j += 1 }
                        if j == n.count { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }
}
