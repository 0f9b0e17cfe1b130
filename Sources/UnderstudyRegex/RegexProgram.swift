/// A compiled pattern and its matcher: a Thompson NFA simulation that keeps the set of live
/// instructions and advances them all one scalar at a time, so a match costs at most
/// O(text length × program size) whatever the pattern — nothing to backtrack, nothing to hang.
struct RegexProgram: Sendable {
    let instructions: [RegexInstruction]
    let classes: [RegexCharacterClass]
    /// Each class's ASCII membership, so the common case is one bit test with no copy.
    private let asciiMaps: [(low: UInt64, high: UInt64)]
    /// The UTF-8 of the literal text every match starts with (the pattern is anchored at the
    /// start, being matched whole): compared directly, then the NFA starts after it.
    private let prefix: [UInt8]
    /// Where the NFA starts once `prefix` matched.
    private let prefixEnd: Int
    /// The cached DFA, for programs without assertions past the prefix.
    private let dfa: RegexDFA?

    init(pattern: String) throws(RegexSyntaxError) {
        var parser = RegexParser(pattern)
        let node = try parser.parse()
        var compiler = RegexCompiler(pattern: pattern)
        try compiler.compile(node)
        var instructions = compiler.instructions
        // `$` or `\z` just before `match` can be dropped: a match only counts at the end of the
        // text, where both hold. That leaves most anchored patterns without assertions (DFA-able).
        for pc in instructions.indices.dropLast() {
            if case .assert(let kind) = instructions[pc], kind == .end || kind == .endOrFinalTerminator,
                case .match = instructions[pc + 1]
            {
                instructions[pc] = .jump(pc + 1)
            }
        }
        self.instructions = instructions
        classes = compiler.classes
        asciiMaps = classes.map(\.asciiMap)
        // No jump ever targets an instruction of the leading run of `^` and literals (jumps go to
        // splits, just past splits, or past a construct that begins with a split), so the run
        // can be checked up front.
        var index = 0
        var prefix: [UInt8] = []
        scan: while index < instructions.count {
            switch instructions[index] {
            case .assert(.start): break
            case .scalar(let scalar): prefix.append(contentsOf: String(Character(scalar)).utf8)
            default: break scan
            }
            index += 1
        }
        self.prefix = prefix
        self.prefixEnd = index
        self.dfa = RegexDFA(instructions: instructions, classes: classes, startPC: index)
    }

    /// Whether the whole of `text` (as UTF-8) matches; `cached: false` skips the DFA (for tests
    /// that check both paths agree).
    func matchesWhole(_ text: UnsafeBufferPointer<UInt8>, cached: Bool = true) -> Bool {
        guard text.count >= prefix.count else { return false }
        for index in 0..<prefix.count where text[index] != prefix[index] { return false }
        if cached, let dfa, let answer = dfa.matches(text, from: prefix.count) { return answer }
        let size = instructions.count
        return instructions.withUnsafeBufferPointer { program in
            asciiMaps.withUnsafeBufferPointer { maps in
                // current list, next list, generation stamps, closure stack (≤ 2 pushes per instruction)
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 5 * size + 2) { storage in
                    run(program, maps, text, storage.baseAddress!, size)
                }
            }
        }
    }

    private func run(
        _ program: UnsafeBufferPointer<RegexInstruction>, _ maps: UnsafeBufferPointer<(low: UInt64, high: UInt64)>,
        _ text: UnsafeBufferPointer<UInt8>, _ base: UnsafeMutablePointer<Int>, _ size: Int
    ) -> Bool {
        var current = base
        var next = base + size
        let stamps = base + 2 * size
        let stack = base + 3 * size
        stamps.initialize(repeating: -1, count: size)
        var scanner = RegexScanner(text, from: prefix.count)
        var currentCount = closure(
            program, from: prefixEnd, into: current, count: 0, stamps: stamps, generation: 0,
            stack: stack, at: scanner)
        var generation = 1
        while currentCount > 0 {
            guard let scalar = scanner.current else {
                for index in 0..<currentCount {
                    if case .match = program[current[index]] { return true }
                }
                return false
            }
            scanner.advance()
            var nextCount = 0
            let value = scalar.value
            for index in 0..<currentCount {
                let pc = current[index]
                let consumed: Bool
                switch program[pc] {
                case .scalar(let expected):
                    consumed = expected == scalar
                case .any:
                    consumed = !RegexScanner.isLineTerminator(scalar)
                case .set(let set):
                    if value < 64 {
                        consumed = (maps[set].low >> UInt64(value)) & 1 == 1
                    } else if value < 128 {
                        consumed = (maps[set].high >> UInt64(value - 64)) & 1 == 1
                    } else {
                        consumed = classes[set].contains(scalar)
                    }
                default:
                    consumed = false
                }
                if consumed {
                    nextCount = closure(
                        program, from: pc + 1, into: next, count: nextCount, stamps: stamps,
                        generation: generation, stack: stack, at: scanner)
                }
            }
            generation += 1
            swap(&current, &next)
            currentCount = nextCount
        }
        return false
    }

    /// Adds `start` and everything reachable from it without consuming a scalar to `list`.
    @inline(__always)
    private func closure(
        _ program: UnsafeBufferPointer<RegexInstruction>, from start: Int,
        into list: UnsafeMutablePointer<Int>, count: Int,
        stamps: UnsafeMutablePointer<Int>, generation: Int,
        stack: UnsafeMutablePointer<Int>, at scanner: RegexScanner
    ) -> Int {
        var count = count
        var depth = 1
        stack[0] = start
        while depth > 0 {
            depth -= 1
            let pc = stack[depth]
            if stamps[pc] == generation { continue }
            stamps[pc] = generation
            switch program[pc] {
            case .jump(let target):
                stack[depth] = target
                depth += 1
            case .split(let first, let second):
                stack[depth] = second
                stack[depth + 1] = first
                depth += 2
            case .assert(let assertion):
                if scanner.holds(assertion) {
                    stack[depth] = pc + 1
                    depth += 1
                }
            default:
                list[count] = pc
                count += 1
            }
        }
        return count
    }
}
