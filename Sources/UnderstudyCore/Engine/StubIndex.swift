/// Finds the stubs that could match a request without scanning them all: exact-path stubs are
/// bucketed by decoded path (each entry remembering its method, if any); only stubs with a pattern
/// or no path are checked for every request, and a pattern stub only when the path starts with the
/// pattern's literal prefix (see ``PatternPrefix``), a byte comparison instead of a regex run.
///
/// One dictionary keyed by path alone means one hash of the path per request (a key of method and
/// path hashed both strings, for two dictionaries).
struct StubIndex {
    private struct Entry {
        /// The stub's method (upper-cased), or nil for any method.
        var method: String?
        var index: Int
    }

    /// Exact-path stubs by path, in load order.
    private var byPath: [String: [Entry]] = [:]
    private var unindexed: [Int] = []
    /// The literal prefix of each unindexed stub's path pattern (empty: none, or no pattern).
    private var unindexedPrefixes: [[UInt8]] = []

    init(stubs: [Stub]) {
        for (index, stub) in stubs.enumerated() {
            switch stub.request.path {
            case .exact(let path)?:
                byPath[path, default: []].append(Entry(method: stub.request.method, index: index))
            case .pattern(let regex)?:
                unindexed.append(index)
                unindexedPrefixes.append(PatternPrefix.of(regex.pattern))
            case nil:
                unindexed.append(index)
                unindexedPrefixes.append([])
            }
        }
    }

    /// Calls `visit` with candidate stub indices in load order until it returns `true`.
    @discardableResult
    func firstCandidate(method: String, path: String, where visit: (Int) -> Bool) -> Int? {
        let exact = byPath[path] ?? []
        var i = 0, k = 0
        var pathBytes = path
        // Merge of two sorted lists, so the earliest-loaded candidate always wins.
        while true {
            while i < exact.count, let wanted = exact[i].method, wanted != method { i += 1 }
            while k < unindexed.count, !unindexedPrefixes[k].isEmpty,
                  !pathBytes.withUTF8({ $0.starts(with: unindexedPrefixes[k]) }) { k += 1 }
            let a = i < exact.count ? exact[i].index : Int.max
            let c = k < unindexed.count ? unindexed[k] : Int.max
            if a == Int.max && c == Int.max { return nil }
            let next: Int
            if a < c { next = a; i += 1 } else { next = c; k += 1 }
            if visit(next) { return next }
        }
    }
}
