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
        /// Where the stub comes in the order stubs are tried (see ``Stub/ranks(of:)``).
        var rank: Int
    }

    /// The stubs for one path, in load order. The first is stored inline: paths almost always
    /// have one stub, and reading it then costs no trip to a separate array (with 10 000 stubs
    /// that trip is a cache miss per request).
    private struct Bucket {
        var first: Entry
        var rest: [Entry] = []

        var count: Int { 1 + rest.count }

        subscript(position: Int) -> Entry { position == 0 ? first : rest[position - 1] }
    }

    /// Exact-path stubs by path.
    private var byPath: [String: Bucket] = [:]
    private var unindexed: [Int] = []
    /// The literal prefix of each unindexed stub's path pattern (empty: none, or no pattern).
    private var unindexedPrefixes: [[UInt8]] = []
    private var unindexedRanks: [Int] = []

    init(stubs: [Stub]) {
        let ranks = Stub.ranks(of: stubs)
        for index in ranks.indices.sorted(by: { ranks[$0] < ranks[$1] }) {
            let stub = stubs[index]
            let rank = ranks[index]
            switch stub.request.path {
            case .exact(let path)?:
                let entry = Entry(method: stub.request.method, index: index, rank: rank)
                if byPath[path] == nil {
                    byPath[path] = Bucket(first: entry)
                } else {
                    byPath[path]!.rest.append(entry)
                }
            case .pattern(let regex)?:
                unindexed.append(index)
                unindexedRanks.append(rank)
                unindexedPrefixes.append(PatternPrefix.of(regex.pattern))
            case .exactTarget(let target)?:
                // The decoded path starts with the target's path when that path has nothing to decode.
                let pathPart =
                    target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
                    ?? ""
                unindexed.append(index)
                unindexedRanks.append(rank)
                unindexedPrefixes.append(pathPart.contains("%") || pathPart.contains("+") ? [] : Array(pathPart.utf8))
            case .targetPattern, nil:
                unindexed.append(index)
                unindexedRanks.append(rank)
                unindexedPrefixes.append([])
            }
        }
    }

    /// Calls `visit` with candidate stub indices in rank order until it returns `true`.
    @discardableResult
    func firstCandidate(method: String, path: String, where visit: (Int) -> Bool) -> Int? {
        let exact = byPath[path]
        let exactCount = exact?.count ?? 0
        var i = 0, k = 0
        var pathBytes = path
        // Merge of two sorted lists, so the earliest-loaded candidate always wins.
        while true {
            while i < exactCount, let wanted = exact![i].method, wanted != method { i += 1 }
            while k < unindexed.count, !unindexedPrefixes[k].isEmpty,
                !pathBytes.withUTF8({ $0.starts(with: unindexedPrefixes[k]) })
            { k += 1 }
            var a = Int.max, aIndex = 0
            if i < exactCount {
                let entry = exact![i]  // one copy of the entry: its method string is retained once
                a = entry.rank
                aIndex = entry.index
            }
            let c = k < unindexed.count ? unindexedRanks[k] : Int.max
            if a == Int.max && c == Int.max { return nil }
            let next: Int
            if a < c {
                next = aIndex
                i += 1
            } else {
                next = unindexed[k]
                k += 1
            }
            if visit(next) { return next }
        }
    }
}
