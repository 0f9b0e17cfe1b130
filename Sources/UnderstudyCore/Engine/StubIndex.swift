/// Finds the stubs that could match a request without scanning them all: exact-path stubs are
/// bucketed by method and decoded path (plus an any-method bucket per path); only stubs with a
/// pattern or no path are checked for every request.
struct StubIndex {
    private struct Key: Hashable {
        var method: String
        var path: String
    }

    private var byMethodAndPath: [Key: [Int]] = [:]
    private var byPath: [String: [Int]] = [:]
    private var unindexed: [Int] = []

    init(stubs: [Stub]) {
        for (index, stub) in stubs.enumerated() {
            switch stub.request.path {
            case .exact(let path)?:
                if let method = stub.request.method {
                    byMethodAndPath[Key(method: method, path: path), default: []].append(index)
                } else {
                    byPath[path, default: []].append(index)
                }
            case .pattern?, nil:
                unindexed.append(index)
            }
        }
    }

    /// Calls `visit` with candidate stub indices in load order until it returns `true`.
    @discardableResult
    func firstCandidate(method: String, path: String, where visit: (Int) -> Bool) -> Int? {
        let exact = byMethodAndPath[Key(method: method, path: path)] ?? []
        let anyMethod = byPath[path] ?? []
        var i = 0, j = 0, k = 0
        // Three-way merge of sorted lists, so the earliest-loaded candidate always wins.
        while i < exact.count || j < anyMethod.count || k < unindexed.count {
            let a = i < exact.count ? exact[i] : Int.max
            let b = j < anyMethod.count ? anyMethod[j] : Int.max
            let c = k < unindexed.count ? unindexed[k] : Int.max
            let next: Int
            if a <= b && a <= c { next = a; i += 1 } else if b <= c { next = b; j += 1 } else { next = c; k += 1 }
            if visit(next) { return next }
        }
        return nil
    }
}
