/// Turns a ``RegexNode`` into instructions, refusing programs over ``RegexLimits/maxProgramSize``
/// (counted repetitions are copied out, so `(a{1000}){1000}` would otherwise explode).
struct RegexCompiler {
    private(set) var instructions: [RegexInstruction] = []
    private(set) var classes: [RegexCharacterClass] = []
    private let pattern: String

    init(pattern: String) {
        self.pattern = pattern
    }

    /// Compiles `node` followed by `match`.
    mutating func compile(_ node: RegexNode) throws(RegexSyntaxError) {
        try emit(node)
        try append(.match)
    }

    private mutating func emit(_ node: RegexNode) throws(RegexSyntaxError) {
        switch node {
        case .empty:
            break
        case .scalar(let scalar):
            try append(.scalar(scalar))
        case .any:
            try append(.any)
        case .set(let set):
            classes.append(set)
            try append(.set(classes.count - 1))
        case .assertion(let assertion):
            try append(.assert(assertion))
        case .concatenation(let items):
            for item in items { try emit(item) }
        case .alternation(let branches):
            // split L1, next; L1: branch; jump end; next: split ...
            var jumps: [Int] = []
            for (index, branch) in branches.enumerated() {
                if index < branches.count - 1 {
                    let split = try append(.split(0, 0))
                    try emit(branch)
                    jumps.append(try append(.jump(0)))
                    instructions[split] = .split(split + 1, instructions.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { instructions[jump] = .jump(instructions.count) }
        case .repetition(let inner, let min, let max):
            for _ in 0..<min { try emit(inner) }
            if let max {
                // Each optional copy may skip to the end: x{2,4} = xx(?:x(?:x)?)?
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(try append(.split(0, 0)))
                    try emit(inner)
                }
                for split in splits { instructions[split] = .split(split + 1, instructions.count) }
            } else {
                // loop: split body, exit; body; jump loop
                let loop = try append(.split(0, 0))
                try emit(inner)
                try append(.jump(loop))
                instructions[loop] = .split(loop + 1, instructions.count)
            }
        }
    }

    @discardableResult
    private mutating func append(_ instruction: RegexInstruction) throws(RegexSyntaxError) -> Int {
        guard instructions.count < RegexLimits.maxProgramSize else {
            throw RegexSyntaxError(
                pattern: pattern,
                reason:
                    "the pattern is too large once its repetitions are expanded (over \(RegexLimits.maxProgramSize) steps); use smaller counts"
            )
        }
        instructions.append(instruction)
        return instructions.count - 1
    }
}
