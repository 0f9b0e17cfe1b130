#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lazily built DFA over a program without assertions: each state is a set of live NFA
/// instructions, and the step for an ASCII byte is computed once and then looked up, so a long
/// body costs one table read per byte instead of one pass over the live set.
///
/// States are capped (``maxStates``); a match that would need more returns nil and the caller
/// falls back to the NFA simulation, which is linear on its own. `@unchecked Sendable`: every
/// access to the mutable tables holds `mutex`. For the same reason they are
/// `@exclusivity(unchecked)`: no two accesses can overlap, and the runtime's check cost ~65
/// instructions an access, four per `pathPattern` request (callgrind, `scripts/bench --gate`).
final class RegexDFA: @unchecked Sendable {
    /// At most this many states are kept (each holds a 128-entry ASCII row).
    static let maxStates = 512

    private static let unknown: Int32 = -1
    private static let dead: Int32 = -2

    private let instructions: [RegexInstruction]
    private let classes: [RegexCharacterClass]
    private let start: [Int]
    @exclusivity(unchecked) private var mutex = pthread_mutex_t()
    @exclusivity(unchecked) private var states: [[Int]] = []
    @exclusivity(unchecked) private var accepting: [Bool] = []
    /// 128 next-state entries per state, by ASCII byte; a raw buffer so the per-byte lookup
    /// is one load (grown by doubling, freed in deinit).
    @exclusivity(unchecked) private var rows: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private var rowCapacity = 4
    @exclusivity(unchecked) private var index: [[Int]: Int32] = [:]

    /// Nil when the program has an assertion past `startPC` (a step would depend on context).
    init?(instructions: [RegexInstruction], classes: [RegexCharacterClass], startPC: Int) {
        for instruction in instructions[startPC...] {
            if case .assert = instruction { return nil }
        }
        self.instructions = instructions
        self.classes = classes
        var start: [Int] = []
        var seen = Set<Int>()
        Self.closure(from: startPC, in: instructions, into: &start, seen: &seen)
        self.start = start.sorted()
        rows = .allocate(capacity: rowCapacity * 128)
        pthread_mutex_init(&mutex, nil)
    }

    deinit {
        rows.deallocate()
        pthread_mutex_destroy(&mutex)
    }

    /// Whether the UTF-8 `text` from `offset` on leads to a match; nil when the state cap was hit.
    func matches(_ text: UnsafeBufferPointer<UInt8>, from offset: Int) -> Bool? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        // The start state is interned first, so it is always state 0.
        guard states.isEmpty ? intern(start) != nil : true else { return nil }
        var state: Int32 = 0
        var position = offset
        while position < text.count {
            let byte = text[position]
            var next: Int32
            if byte < 0x80 {
                next = rows[Int(state) &* 128 &+ Int(byte)]
                if next == Self.unknown {
                    guard let computed = step(state, Unicode.Scalar(byte)) else { return nil }
                    next = computed
                    rows[Int(state) &* 128 &+ Int(byte)] = next
                }
                position &+= 1
            } else {
                // Beyond ASCII: not cached (the row is by byte), computed from the state's set.
                var scanner = RegexScanner(text, from: position)
                guard let scalar = scanner.current, let computed = step(state, scalar) else { return nil }
                next = computed
                scanner.advance()
                position = scanner.offset
            }
            if next == Self.dead { return false }
            state = next
        }
        return accepting[Int(state)]
    }

    private func step(_ state: Int32, _ scalar: Unicode.Scalar) -> Int32? {
        var target: [Int] = []
        var seen = Set<Int>()
        for pc in states[Int(state)] {
            let consumed: Bool
            switch instructions[pc] {
            case .scalar(let expected): consumed = expected == scalar
            case .any: consumed = !RegexScanner.isLineTerminator(scalar)
            case .set(let set): consumed = classes[set].contains(scalar)
            default: consumed = false
            }
            if consumed { Self.closure(from: pc + 1, in: instructions, into: &target, seen: &seen) }
        }
        if target.isEmpty { return Self.dead }
        return intern(target.sorted())
    }

    private func intern(_ set: [Int]) -> Int32? {
        if let known = index[set] { return known }
        guard states.count < Self.maxStates else { return nil }
        let id = Int32(states.count)
        states.append(set)
        accepting.append(set.contains { if case .match = instructions[$0] { return true } else { return false } })
        if states.count > rowCapacity {
            let grown = UnsafeMutablePointer<Int32>.allocate(capacity: rowCapacity * 2 * 128)
            grown.moveInitialize(from: rows, count: rowCapacity * 128)
            rows.deallocate()
            rows = grown
            rowCapacity *= 2
        }
        (rows + Int(id) * 128).initialize(repeating: Self.unknown, count: 128)
        index[set] = id
        return id
    }

    /// The instructions reachable from `start` without consuming: the ones that consume, and `match`.
    private static func closure(
        from start: Int, in instructions: [RegexInstruction], into list: inout [Int], seen: inout Set<Int>
    ) {
        var stack = [start]
        while let pc = stack.popLast() {
            guard seen.insert(pc).inserted else { continue }
            switch instructions[pc] {
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assert: break  // excluded by init
            default: list.append(pc)
            }
        }
    }
}
