#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
///
/// Immutable once built, and a class over raw buffers: ``StubIndex`` is copied out of the engine
/// per request, and one reference costs one retain where six arrays cost six; the binary search
/// reads the buffers with no bounds checks and compares prefixes with `memcmp`.
final class PrefixIndex {
    /// Every distinct prefix, sorted, one after another.
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Where prefix `g` starts in `bytes`; one more element than there are groups.
    private let byteStarts: UnsafeMutableBufferPointer<Int>
    /// The group of the longest other prefix that group `g`'s starts with, or -1.
    private let parents: UnsafeMutableBufferPointer<Int>
    /// Where group `g`'s run starts in `ranks` and `indices`; one more element than groups.
    private let runStarts: UnsafeMutableBufferPointer<Int>
    /// Each stub's rank (see ``Stub/ranks(of:)``), ascending within a group's run.
    let ranks: UnsafeMutableBufferPointer<Int>
    /// Each stub's index in the stub list, beside its rank.
    let indices: UnsafeMutableBufferPointer<Int>
    /// How many distinct prefixes (groups) there are.
    let groupCount: Int

    var isEmpty: Bool { indices.isEmpty }

    /// Indexes `stubs`, given as (literal prefix, rank, stub index) in ascending rank order.
    init(rankOrdered stubs: [(prefix: [UInt8], rank: Int, index: Int)]) {
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
        var parents: [Int] = []
        var bytes: [UInt8] = []
        var byteStarts = [0]
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
        var runStarts = Array(repeating: 0, count: order.count + 1)
        for group in stubGroup { runStarts[position[group] + 1] += 1 }
        for g in 0..<order.count { runStarts[g + 1] += runStarts[g] }
        var ranks = Array(repeating: 0, count: stubs.count)
        var indices = Array(repeating: 0, count: stubs.count)
        var next = runStarts
        for (stub, group) in zip(stubs, stubGroup) {
            let slot = next[position[group]]
            next[position[group]] += 1
            ranks[slot] = stub.rank
            indices[slot] = stub.index
        }
        self.groupCount = order.count
        self.bytes = Self.stored(bytes)
        self.byteStarts = Self.stored(byteStarts)
        self.parents = Self.stored(parents)
        self.runStarts = Self.stored(runStarts)
        self.ranks = Self.stored(ranks)
        self.indices = Self.stored(indices)
    }

    deinit {
        bytes.deallocate()
        byteStarts.deallocate()
        parents.deallocate()
        runStarts.deallocate()
        ranks.deallocate()
        indices.deallocate()
    }

    private static func stored<Element>(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: array.count)
        _ = buffer.initialize(from: array)
        return buffer
    }

    /// The run of group `group` in ``ranks`` and ``indices``.
    func run(_ group: Int) -> Range<Int> { runStarts[group]..<runStarts[group + 1] }

    /// The group whose prefix is the path's longest, or -1 when none is; the others it starts with
    /// follow by ``parent(of:)``.
    func deepestGroup(of path: UnsafeBufferPointer<UInt8>) -> Int {
        // The last prefix not above the path.
        var low = 0, high = groupCount
        while low < high {
            let middle = (low + high) / 2
            if compare(middle, path) <= 0 { low = middle + 1 } else { high = middle }
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

    /// The group of the longest other prefix that `group`'s starts with, or -1.
    func parent(of group: Int) -> Int { parents[group] }

    /// Group `group`'s prefix against `path`, bytewise (a proper prefix sorts first): negative, 0 or positive.
    @inline(__always)
    private func compare(_ group: Int, _ path: UnsafeBufferPointer<UInt8>) -> Int {
        let start = byteStarts[group]
        let length = byteStarts[group + 1] - start
        let shorter = min(length, path.count)
        if shorter > 0, let base = path.baseAddress {
            let order = memcmp(bytes.baseAddress! + start, base, shorter)
            if order != 0 { return Int(order) }
        }
        return length == path.count ? 0 : (length < path.count ? -1 : 1)
    }
}
