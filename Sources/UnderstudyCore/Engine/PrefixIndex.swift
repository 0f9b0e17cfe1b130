/// The stubs ``StubIndex`` cannot bucket by exact path (path patterns, `url`/`urlPattern` targets,
/// no path at all), grouped by the literal prefix every path they match starts with (see
/// ``PatternPrefix``; empty when nothing is known), so a request finds the groups whose prefix it
/// starts with in a binary search instead of comparing its path with every stub's prefix.
///
/// The distinct prefixes are kept sorted bytewise, each with its parent: the longest other prefix
/// that is a prefix of it. The prefixes a path starts with are then exactly the greatest prefix not
/// above the path and that prefix's ancestors, up to the common length of the two (anything sorted
/// between a prefix of the path and the path itself starts with that prefix). The walk yields one
/// group per matching prefix, usually one or two, each a rank-ordered run of a flat array.
struct PrefixIndex {
    /// Every distinct prefix, sorted, one after another.
    private var bytes: [UInt8] = []
    /// Where prefix `g` starts in `bytes`; one more element than there are prefixes.
    private var byteStarts: [Int] = [0]
    /// The group of the longest other prefix that `g`'s starts with, or -1.
    private var parents: [Int] = []
    /// Where group `g`'s run starts in `ranks` and `indices`; one more element than groups.
    private var runStarts: [Int] = [0]
    /// Each stub's rank (see ``Stub/ranks(of:)``), ascending within a group's run.
    private(set) var ranks: [Int] = []
    /// Each stub's index in the stub list, beside its rank.
    private(set) var indices: [Int] = []

    var isEmpty: Bool { indices.isEmpty }
    /// How many distinct prefixes (groups) there are.
    var groupCount: Int { parents.count }

    /// Indexes `stubs`, given as (literal prefix, rank, stub index) in ascending rank order.
    init(rankOrdered stubs: [(prefix: [UInt8], rank: Int, index: Int)]) {
        guard !stubs.isEmpty else { return }
        var groupOf: [[UInt8]: Int] = [:]
        var distinct: [[UInt8]] = []
        var stubGroup: [Int] = []
        stubGroup.reserveCapacity(stubs.count)
        for stub in stubs {
            if let group = groupOf[stub.prefix] {
                stubGroup.append(group)
            } else {
                groupOf[stub.prefix] = distinct.count
                stubGroup.append(distinct.count)
                distinct.append(stub.prefix)
            }
        }
        let order = distinct.indices.sorted { distinct[$0].lexicographicallyPrecedes(distinct[$1]) }
        var position = Array(repeating: 0, count: distinct.count)
        for (sorted, group) in order.enumerated() { position[group] = sorted }

        // Sorted prefixes come in depth-first order of their trie, so a stack of the current
        // prefix's ancestors gives each one its parent.
        var stack: [Int] = []
        parents.reserveCapacity(order.count)
        for (sorted, group) in order.enumerated() {
            let prefix = distinct[group]
            while let top = stack.last, !prefix.starts(with: distinct[order[top]]) { stack.removeLast() }
            parents.append(stack.last ?? -1)
            stack.append(sorted)
            bytes.append(contentsOf: prefix)
            byteStarts.append(bytes.count)
        }

        // Counting sort of the stubs into their groups' runs: a stable one, so each run stays in rank order.
        var counts = Array(repeating: 0, count: order.count + 1)
        for group in stubGroup { counts[position[group] + 1] += 1 }
        for g in 0..<order.count { counts[g + 1] += counts[g] }
        runStarts = counts
        ranks = Array(repeating: 0, count: stubs.count)
        indices = Array(repeating: 0, count: stubs.count)
        var next = counts
        for (stub, group) in zip(stubs, stubGroup) {
            let slot = next[position[group]]
            next[position[group]] += 1
            ranks[slot] = stub.rank
            indices[slot] = stub.index
        }
    }

    /// The run of group `group` in ``ranks`` and ``indices``.
    func run(_ group: Int) -> Range<Int> { runStarts[group]..<runStarts[group + 1] }

    /// The group whose prefix is the path's longest, or -1 when none is; the others it starts with
    /// follow by ``parent(of:)``.
    func deepestGroup(of path: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.withUnsafeBufferPointer { bytes in
            // The last prefix not above the path.
            var low = 0, high = parents.count
            while low < high {
                let middle = (low + high) / 2
                if compare(bytes, middle, path) <= 0 { low = middle + 1 } else { high = middle }
            }
            var group = low - 1
            guard group >= 0 else { return -1 }
            let start = byteStarts[group]
            let length = byteStarts[group + 1] - start
            var common = 0
            while common < length, common < path.count, bytes[start + common] == path[common] { common += 1 }
            while group >= 0, byteStarts[group + 1] - byteStarts[group] > common { group = parents[group] }
            return group
        }
    }

    /// The group of the longest other prefix that `group`'s starts with, or -1.
    func parent(of group: Int) -> Int { parents[group] }

    /// Prefix `group` against `path`, bytewise (a proper prefix sorts first): negative, 0 or positive.
    private func compare(_ bytes: UnsafeBufferPointer<UInt8>, _ group: Int, _ path: UnsafeBufferPointer<UInt8>) -> Int {
        let start = byteStarts[group]
        let length = byteStarts[group + 1] - start
        var i = 0
        while i < length, i < path.count {
            let a = bytes[start + i], b = path[i]
            if a != b { return a < b ? -1 : 1 }
            i += 1
        }
        return length == path.count ? 0 : (length < path.count ? -1 : 1)
    }
}
