extension String {
    /// Whether `needle` occurs in `self`, comparing UTF-8 bytes. Used on the request path instead
    /// of Foundation's locale-aware search, which is much slower and not what HTTP means by "contains".
    package func containsBytes(_ needle: String) -> Bool {
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

extension String {
    /// Whether any of the string's UTF-8 bytes satisfies `predicate`. Scans the bytes in place
    /// (a native string's contiguous storage): going through `UTF8View`'s indices costs several
    /// times more per byte, which shows on every request (paths, methods, targets).
    public func containsUTF8Byte(where predicate: (UInt8) -> Bool) -> Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(where: predicate) }) { return found }
        return utf8.contains(where: predicate)
    }

    /// The offset in UTF-8 bytes of the first `byte`, scanning in place (see
    /// ``containsUTF8Byte(where:)``); nil when it does not occur.
    public func firstUTF8Offset(of byte: UInt8) -> Int? {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.firstIndex(of: byte) }) { return found }
        return utf8.firstIndex(of: byte).map { utf8.distance(from: utf8.startIndex, to: $0) }
    }
}

/// Trimming of ASCII spaces (JSON path filters, cookie pairs).
extension String {
    package var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
