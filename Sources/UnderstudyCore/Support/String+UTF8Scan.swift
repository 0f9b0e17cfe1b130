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
