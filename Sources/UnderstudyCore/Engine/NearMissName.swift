/// A stub's names — its file's name without `.json`, and its id — set against the last segment
/// of an unmatched request's path.
///
/// People guess URLs from the names they read: `GET /examples/respond-then-respond` was meant for
/// the stub in `respond-then-respond.json`, whose path is `/examples/retry-after`. So a request
/// whose last path segment is (nearly) a stub's file name or id is a close miss of that stub,
/// whatever its path: the path's distance is at most ``floor`` plus the segment's edit distance
/// from the closer name (a one-character typo of the path itself still ranks first).
struct NearMissName {
    /// The distance of a path whose last segment is exactly the stub's name.
    static let floor = 0.1
    /// Shorter segments (`/v1`, `/42`) name nothing.
    static let minimumSegmentLength = 3

    /// The request's last non-empty path segment, when long enough to name something.
    let segment: String?
    /// The stub's file, as loaded (`stubs/respond-then-respond.json`).
    let file: String
    /// The stub's id.
    let id: String

    /// The request's last non-empty path segment if it is long enough to be a name.
    static func segment(of path: String) -> String? {
        guard let last = path.split(separator: "/").last, last.utf8.count >= minimumSegmentLength else { return nil }
        return String(last)
    }

    /// `floor` plus the segment's distance from the closer name, when that is below `bound`.
    func pathDistance(below bound: Double) -> Double? {
        guard let segment, bound > Self.floor else { return nil }
        let limit = bound - Self.floor
        // Over the bytes in place, with nothing captured mutably: this runs for many stubs on one
        // unmatched request.
        let byID = Self.distance(segment, id, below: limit, stem: false)
        let byFile = Self.distance(segment, file, below: byID ?? limit, stem: true)
        return (byFile ?? byID).map { Self.floor + $0 }
    }

    private static func distance(_ segment: String, _ name: String, below limit: Double, stem: Bool) -> Double? {
        segment.utf8.withContiguousStorageIfAvailable { segmentBytes in
            name.utf8.withContiguousStorageIfAvailable { nameBytes in
                EditDistance.normalizedDistance(
                    segmentBytes, stem ? Self.stem(of: nameBytes) : nameBytes, below: limit,
                    maximumEdits: RequestPattern.gradedEdits, ignoringASCIICase: true)
            } ?? nil
        } ?? nil
    }

    /// `respond-then-respond` for `stubs/respond-then-respond.json`.
    static func stem(of path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = path.count
        while start > 0 && path[start - 1] != UInt8(ascii: "/") { start -= 1 }
        var end = path.count
        let suffix: StaticString = ".json"
        if end - start >= suffix.utf8CodeUnitCount,
            (0..<suffix.utf8CodeUnitCount).allSatisfy({
                path[end - suffix.utf8CodeUnitCount + $0] == suffix.utf8Start[$0]
            })
        {
            end -= suffix.utf8CodeUnitCount
        }
        return UnsafeBufferPointer(rebasing: path[start..<end])
    }
}
