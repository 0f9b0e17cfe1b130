/// Example strings a pattern matches whole, for writing sample values (`generate --openapi` makes
/// a `pattern: ^[A-Z]{3}-[0-9]{4}$` property `ABC-0000`, not `x`).
extension CompiledRegex {
    /// A string this pattern matches whole, at least `minimumLength` scalars long when the
    /// pattern's unbounded or ranged repetitions allow it; `nil` when the generator finds none
    /// (the sample is checked against the pattern before it is returned).
    ///
    /// Each class gives its first member among letters, digits, then other printable ASCII; an
    /// alternation its first branch that yields a match; a repetition its minimum count, plus what
    /// is needed to reach `minimumLength`; assertions add nothing.
    public func sample(minimumLength: Int = 0) -> String? {
        var parser = RegexParser(pattern)
        guard let node = try? parser.parse() else { return nil }
        let shortest = RegexSampler.length(of: node)
        var needed = max(0, minimumLength - shortest)
        guard var scalars = RegexSampler.generate(node, needed: &needed) else { return nil }
        var text = String(String.UnicodeScalarView(scalars))
        if !matchesWhole(text) {
            // A first branch or a class member that an assertion then refused: the shortest form.
            var none = 0
            guard let plain = RegexSampler.generate(node, needed: &none) else { return nil }
            scalars = plain
            text = String(String.UnicodeScalarView(scalars))
        }
        return matchesWhole(text) ? text : nil
    }
}

/// The generator behind ``CompiledRegex/sample(minimumLength:)``.
enum RegexSampler {
    /// Preferred members of a class, in order: what a reader expects in an example.
    private static let preferred: [Unicode.Scalar] = {
        var scalars: [Unicode.Scalar] = []
        for range in [("A", "Z"), ("a", "z"), ("0", "9")] as [(Unicode.Scalar, Unicode.Scalar)] {
            for value in range.0.value...range.1.value { scalars.append(Unicode.Scalar(value)!) }
        }
        for value in UInt32(0x21)...0x7E where !scalars.contains(Unicode.Scalar(value)!) {
            scalars.append(Unicode.Scalar(value)!)
        }
        scalars.append(" ")
        return scalars
    }()

    /// The length of the shortest string `node` generates.
    static func length(of node: RegexNode) -> Int {
        switch node {
        case .empty, .assertion: return 0
        case .scalar, .any, .set: return 1
        case .concatenation(let nodes): return nodes.map(length(of:)).reduce(0, +)
        case .alternation(let nodes): return nodes.first.map(length(of:)) ?? 0
        case .repetition(let child, let min, _): return min * length(of: child)
        }
    }

    /// A string `node` generates, `needed` more scalars long than its shortest where repetitions
    /// allow (`needed` is what is still missing on return).
    static func generate(_ node: RegexNode, needed: inout Int) -> [Unicode.Scalar]? {
        switch node {
        case .empty, .assertion:
            return []
        case .scalar(let scalar):
            return [scalar]
        case .any:
            return ["x"]
        case .set(let set):
            return preferred.first(where: { set.contains($0) }).map { [$0] }
        case .concatenation(let nodes):
            var out: [Unicode.Scalar] = []
            for child in nodes {
                guard let part = generate(child, needed: &needed) else { return nil }
                out += part
            }
            return out
        case .alternation(let nodes):
            for child in nodes {
                var attempt = needed
                if let part = generate(child, needed: &attempt) {
                    needed = attempt
                    return part
                }
            }
            return nil
        case .repetition(let child, let min, let max):
            var none = 0
            guard let one = generate(child, needed: &none) else { return min == 0 ? [] : nil }
            var count = min
            if needed > 0, !one.isEmpty {
                let room = (max ?? Int.max) - min
                let more = Swift.min(room, (needed + one.count - 1) / one.count)
                count += more
                needed = Swift.max(0, needed - more * one.count)
            }
            // Bounded by the limits the engine enforces on a pattern anyway.
            return Array(Array(repeating: one, count: Swift.min(count, 10_000)).joined())
        }
    }
}
