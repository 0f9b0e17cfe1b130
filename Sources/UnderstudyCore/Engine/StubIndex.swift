/// Finds the stubs that could match a request without scanning them all: exact-path stubs are
/// bucketed by decoded path (each entry remembering its method, if any); stubs with a pattern, a
/// `url` target or no path are grouped by the literal prefix of the paths they can match (see
/// ``PatternPrefix`` and ``PrefixIndex``), so a request meets only the groups its path starts
/// with: the cost stays flat however many patterns there are, and no regex runs for the others.
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
    /// Every other stub, by the literal prefix of the paths it can match.
    let unindexed: PrefixIndex

    init(stubs: [Stub]) {
        let ranks = Stub.ranks(of: stubs)
        var others: [(prefix: [UInt8], rank: Int, index: Int)] = []
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
                others.append((PatternPrefix.of(regex.pattern), rank, index))
            case .exactTarget(let target)?:
                // The decoded path starts with the target's path when that path has nothing to decode.
                let pathPart =
                    target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
                    ?? ""
                others.append(
                    (pathPart.contains("%") || pathPart.contains("+") ? [] : Array(pathPart.utf8), rank, index))
            case .targetPattern, nil:
                others.append(([], rank, index))
            }
        }
        unindexed = PrefixIndex(rankOrdered: others)
    }

    /// Calls `visit` with candidate stub indices in rank order until it returns `true`: the stubs
    /// bucketed under `path` that take `method` (or any), and the unindexed stubs whose literal
    /// prefix `path` starts with.
    @discardableResult
    func firstCandidate(method: String, path: String, where visit: (Int) -> Bool) -> Int? {
        let exact = byPath[path]
        if unindexed.isEmpty {
            // Exact paths only: the bucket, in rank order already.
            guard let exact else { return nil }
            for i in 0..<exact.count {
                let entry = exact[i]
                if let wanted = entry.method, wanted != method { continue }
                if visit(entry.index) { return entry.index }
            }
            return nil
        }
        let exactCount = exact?.count ?? 0
        var pathBytes = path
        let deepest = pathBytes.withUTF8 { unindexed.deepestGroup(of: $0) }
        var groups = 0
        var group = deepest
        while group >= 0 {
            groups += 1
            group = unindexed.parent(of: group)
        }
        // A cursor and an end per matching prefix group, on the stack: no allocation per request.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * groups) { runs -> Int? in
            group = deepest
            for run in 0..<groups {
                let range = unindexed.run(group)
                runs[2 * run] = range.lowerBound
                runs[2 * run + 1] = range.upperBound
                group = unindexed.parent(of: group)
            }
            var i = 0
            // Merge of sorted lists, so the first-ranked candidate always wins.
            while true {
                while i < exactCount, let wanted = exact![i].method, wanted != method { i += 1 }
                var best = Int.max, bestIndex = 0, from = -1
                if i < exactCount {
                    let entry = exact![i]  // one copy of the entry: its method string is retained once
                    best = entry.rank
                    bestIndex = entry.index
                }
                for run in 0..<groups {
                    let cursor = runs[2 * run]
                    if cursor < runs[2 * run + 1], unindexed.ranks[cursor] < best {
                        best = unindexed.ranks[cursor]
                        from = run
                    }
                }
                if best == Int.max { return nil }
                let next: Int
                if from < 0 {
                    next = bestIndex
                    i += 1
                } else {
                    next = unindexed.indices[runs[2 * from]]
                    runs[2 * from] += 1
                }
                if visit(next) { return next }
            }
        }
    }
}
