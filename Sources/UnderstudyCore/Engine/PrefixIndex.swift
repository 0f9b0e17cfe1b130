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
        // Every prefix in one buffer, so sorting compares with `memcmp` and retains nothing.
        var flat: [UInt8] = []
        var starts: [Int] = [0]
        starts.reserveCapacity(stubs.count + 1)
        for stub in stubs {
            flat.append(contentsOf: stub.prefix)
            starts.append(flat.count)
        }
        // By prefix, then by rank (the input's order): equal prefixes end up side by side, each
        // group's stubs in rank order.
        let order = flat.withUnsafeBufferPointer { flat in
            stubs.indices.sorted { a, b in
                let order = Self.compare(flat, starts[a]..<starts[a + 1], flat, starts[b]..<starts[b + 1])
                return order != 0 ? order < 0 : a < b
            }
        }

        var bytes: [UInt8] = []
        var byteStarts = [0]
        var parents: [Int] = []
        var runStarts: [Int] = []
        var ranks: [Int] = []
        var indices: [Int] = []
        ranks.reserveCapacity(stubs.count)
        indices.reserveCapacity(stubs.count)
        // Sorted prefixes come in depth-first order of their trie, so a stack of the current
        // prefix's ancestors (as groups) gives each one its parent.
        var stack: [Int] = []
        flat.withUnsafeBufferPointer { flat in
            var previous: Range<Int>? = nil
            for (slot, stub) in order.enumerated() {
                let prefix = starts[stub]..<starts[stub + 1]
                if previous == nil || Self.compare(flat, previous!, flat, prefix) != 0 {
                    let group = parents.count
                    bytes.withUnsafeBufferPointer { bytes in
                        while let top = stack.last {
                            let topRange = byteStarts[top]..<byteStarts[top + 1]
                            if topRange.count <= prefix.count,
                                Self.compare(
                                    bytes, topRange, flat, prefix.lowerBound..<prefix.lowerBound + topRange.count)
                                    == 0
                            {
                                break
                            }
                            stack.removeLast()
                        }
                    }
                    parents.append(stack.last ?? -1)
                    stack.append(group)
                    bytes.append(contentsOf: flat[prefix])
                    byteStarts.append(bytes.count)
                    runStarts.append(slot)
                    previous = prefix
                }
                ranks.append(stubs[stub].rank)
                indices.append(stubs[stub].index)
            }
        }
        runStarts.append(stubs.count)
        self.groupCount = parents.count
        self.bytes = Self.stored(bytes)
        self.byteStarts = Self.stored(byteStarts)
        self.parents = Self.stored(parents)
        self.runStarts = Self.stored(runStarts)
        self.ranks = Self.stored(ranks)
        self.indices = Self.stored(indices)
    }

    /// Bytes `a` of `x` against bytes `b` of `y` (a proper prefix sorts first): negative, 0 or positive.
    private static func compare(
        _ x: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ y: UnsafeBufferPointer<UInt8>, _ b: Range<Int>
    ) -> Int {
        let shorter = min(a.count, b.count)
        if shorter > 0 {
            let order = memcmp(x.baseAddress! + a.lowerBound, y.baseAddress! + b.lowerBound, shorter)
            if order != 0 { return Int(order) }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
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
