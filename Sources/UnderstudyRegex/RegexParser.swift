/// Parses the supported syntax into a ``RegexNode``: literals and escapes, `.`, classes,
/// `\d \w \s \D \W \S`, `^ $ \A \z \Z \b \B`, groups `( )`, `(?: )`, `(?<name> )`, `|`,
/// `* + ? {m} {m,} {m,n}` (lazy forms accepted; for a yes/no match they mean the same), and the
/// flags `i m s` as `(?i)` or `(?i: )`.
///
/// Constructs that only a backtracking engine can run (backreferences, lookaround, atomic groups,
/// possessive quantifiers) are refused with a message naming them, so a stub can never make a
/// match take more than linear time.
struct RegexParser {
    private let pattern: String
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var depth = 0
    /// `(?i)`: letters match either case.
    private var ignoresCase = false
    /// `(?m)`: `^ $` also match at line breaks.
    private var multiline = false
    /// `(?s)`: `.` also matches line terminators.
    private var dotMatchesAll = false

    init(_ pattern: String) {
        self.pattern = pattern
        self.scalars = Array(pattern.unicodeScalars)
    }

    /// The whole pattern as one node.
    mutating func parse() throws(RegexSyntaxError) -> RegexNode {
        guard scalars.count <= RegexLimits.maxPatternLength else {
            throw failure(
                "the pattern is \(scalars.count) characters long; at most \(RegexLimits.maxPatternLength) are allowed")
        }
        let node = try parseAlternation()
        if position < scalars.count {
            // Only an unmatched `)` stops the top-level alternation early.
            throw failure("unmatched `)` at offset \(position)")
        }
        return node
    }

    // MARK: Structure

    private mutating func parseAlternation() throws(RegexSyntaxError) -> RegexNode {
        var branches = [try parseConcatenation()]
        while peek == "|" {
            position += 1
            branches.append(try parseConcatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseConcatenation() throws(RegexSyntaxError) -> RegexNode {
        var items: [RegexNode] = []
        while let next = peek, next != "|", next != ")" {
            items.append(try parseQuantified())
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .concatenation(items)
        }
    }

    private mutating func parseQuantified() throws(RegexSyntaxError) -> RegexNode {
        let start = position
        var node = try parseAtom()
        guard let bounds = try parseQuantifier() else { return node }
        if case .assertion = node {
            throw failure("a quantifier cannot follow the assertion at offset \(start)")
        }
        node = .repetition(node, min: bounds.min, max: bounds.max)
        if let next = peek, next == "*" || next == "+" || next == "?" || (next == "{" && looksLikeInterval) {
            throw failure(
                "nothing to repeat at offset \(position): a quantifier cannot follow a quantifier (wrap the first in a group)"
            )
        }
        return node
    }

    /// `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}`, each optionally lazy (`?`); nil if none follows.
    private mutating func parseQuantifier() throws(RegexSyntaxError) -> (min: Int, max: Int?)? {
        guard let next = peek else { return nil }
        let start = position
        let bounds: (min: Int, max: Int?)
        switch next {
        case "*":
            position += 1
            bounds = (0, nil)
        case "+":
            position += 1
            bounds = (1, nil)
        case "?":
            position += 1
            bounds = (0, 1)
        case "{" where looksLikeInterval: bounds = try parseInterval()
        default: return nil
        }
        if peek == "?" {
            position += 1  // lazy: the same yes/no answer
        } else if peek == "+" {
            throw unsupported("the possessive quantifier `\(text(start..<position + 1))` at offset \(start)")
        }
        return bounds
    }

    private var looksLikeInterval: Bool {
        var index = position + 1
        var digits = 0
        while index < scalars.count, ("0"..."9").contains(scalars[index]) {
            index += 1
            digits += 1
        }
        return digits > 0 && index < scalars.count && (scalars[index] == "}" || scalars[index] == ",")
    }

    private mutating func parseInterval() throws(RegexSyntaxError) -> (min: Int, max: Int?) {
        let start = position
        position += 1
        guard let low = parseNumber() else {
            throw failure(
                "invalid repetition at offset \(start): expected `{m}`, `{m,}` or `{m,n}` (write `\\{` for a literal brace)"
            )
        }
        var high: Int? = low
        if peek == "," {
            position += 1
            high = parseNumber()
        }
        guard peek == "}" else {
            throw failure(
                "invalid repetition at offset \(start): expected `{m}`, `{m,}` or `{m,n}` (write `\\{` for a literal brace)"
            )
        }
        position += 1
        let written = text(start..<position)
        if let high, high < low {
            throw failure("invalid repetition `\(written)`: the maximum is below the minimum")
        }
        if low > RegexLimits.maxRepetitionCount || (high ?? 0) > RegexLimits.maxRepetitionCount {
            throw failure(
                "the repetition `\(written)` is too large; counts up to \(RegexLimits.maxRepetitionCount) are allowed")
        }
        return (low, high)
    }

    private mutating func parseNumber() -> Int? {
        var value = 0
        var digits = 0
        while let next = peek, ("0"..."9").contains(next) {
            value = min(value * 10 + Int(next.value - 0x30), Int(Int32.max))
            digits += 1
            position += 1
        }
        return digits == 0 ? nil : value
    }

    // MARK: Atoms

    private mutating func parseAtom() throws(RegexSyntaxError) -> RegexNode {
        let start = position
        let next = scalars[position]
        position += 1
        switch next {
        case "(": return try parseGroup(start: start)
        case "[":
            var set = try parseClass(start: start)
            if ignoresCase { set.ignoreCase() }
            return .set(set)
        case ".":
            guard dotMatchesAll else { return .any }
            var everything = RegexCharacterClass()
            everything.isNegated = true
            return .set(everything)
        case "^": return .assertion(multiline ? .lineStart : .start)
        case "$": return .assertion(multiline ? .lineEnd : .endOrFinalTerminator)
        case "\\":
            let escape = try parseEscape(start: start)
            if case .scalar(let scalar) = escape { return literal(scalar) }
            return escape
        case "*", "+", "?":
            throw failure(
                "nothing to repeat at offset \(start): `\(next)` needs something before it (write `\\\(next)` for the character)"
            )
        case "{" where looksLikeIntervalAt(start):
            throw failure(
                "nothing to repeat at offset \(start): `{` needs something before it (write `\\{` for the character)")
        default: return literal(next)
        }
    }

    /// A literal scalar, caseless under `(?i)` (simple case mapping: `ß` matches `ẞ`, not `SS`).
    private func literal(_ scalar: Unicode.Scalar) -> RegexNode {
        // Beyond ASCII another scalar may map onto this one even when it maps onto none (ẞ → ß).
        guard ignoresCase, scalar.value >= 0x80 || !RegexCharacterClass.caseForms(of: scalar).isEmpty else {
            return .scalar(scalar)
        }
        return .set(.caseless(scalar))
    }

    private func looksLikeIntervalAt(_ index: Int) -> Bool {
        var copy = self
        copy.position = index
        return copy.looksLikeInterval
    }

    private mutating func parseGroup(start: Int) throws(RegexSyntaxError) -> RegexNode {
        let outerFlags = (ignoresCase, multiline, dotMatchesAll)
        if peek == "?" {
            position += 1
            guard let kind = peek else { throw failure("unterminated group at offset \(start)") }
            switch kind {
            case ":":
                position += 1
            case "=", "!":
                throw unsupported("lookahead `(?\(kind)` at offset \(start)")
            case ">":
                throw unsupported("the atomic group `(?>` at offset \(start)")
            case "<"
            where position + 1 < scalars.count && (scalars[position + 1] == "=" || scalars[position + 1] == "!"):
                throw unsupported("lookbehind `(?<\(scalars[position + 1])` at offset \(start)")
            case "<", "P", "'":
                try skipGroupName(start: start)
            case "i", "m", "s", "x", "-":
                // `(?i)` holds for the rest of the enclosing group; `(?i:...)` only inside.
                if try parseFlags(start: start) { return .empty }
            default:
                throw unsupported("the group `(?\(kind)` at offset \(start) (comments, conditionals)")
            }
        }
        depth += 1
        guard depth <= RegexLimits.maxGroupDepth else {
            throw failure("groups nest more than \(RegexLimits.maxGroupDepth) deep at offset \(start)")
        }
        let inner = try parseAlternation()
        depth -= 1
        guard peek == ")" else { throw failure("missing `)` for the group opened at offset \(start)") }
        position += 1
        (ignoresCase, multiline, dotMatchesAll) = outerFlags
        return inner
    }

    /// Reads `ims-` flags up to `)` (returns true: they hold for the rest of the enclosing group)
    /// or `:` (returns false: they hold inside this group).
    private mutating func parseFlags(start: Int) throws(RegexSyntaxError) -> Bool {
        var on = true
        while let next = peek {
            position += 1
            switch next {
            case "i": ignoresCase = on
            case "m": multiline = on
            case "s": dotMatchesAll = on
            case "-" where on: on = false
            case ")": return true
            case ":": return false
            default:
                throw unsupported(
                    "the flag `\(next)` in the group at offset \(start) (flags `i`, `m` and `s` are supported)")
            }
        }
        throw failure("unterminated group at offset \(start)")
    }

    /// `(?<name>`, `(?P<name>`, `(?'name'`: a named group; the name plays no part in a yes/no match.
    private mutating func skipGroupName(start: Int) throws(RegexSyntaxError) {
        if peek == "P" {
            position += 1
            if peek == "=" || peek == ">" {
                throw unsupported("the named backreference `(?P\(peek!)` at offset \(start)")
            }
        }
        guard let open = peek, open == "<" || open == "'" else {
            throw failure("invalid group name at offset \(start)")
        }
        let close: Unicode.Scalar = open == "<" ? ">" : "'"
        position += 1
        let nameStart = position
        while let next = peek, next != close {
            guard next.properties.isAlphabetic || ("0"..."9").contains(next) || next == "_" else {
                throw failure("invalid character `\(next)` in the group name at offset \(position)")
            }
            position += 1
        }
        guard peek == close else { throw failure("unterminated group name at offset \(start)") }
        guard position > nameStart else { throw failure("empty group name at offset \(start)") }
        position += 1
    }

    // MARK: Escapes

    private mutating func parseEscape(start: Int) throws(RegexSyntaxError) -> RegexNode {
        guard let next = peek else { throw failure("the pattern ends with a lone `\\`") }
        position += 1
        switch next {
        case "d": return .set(.builtin(.digit, negated: false))
        case "D": return .set(.builtin(.digit, negated: true))
        case "w": return .set(.builtin(.word, negated: false))
        case "W": return .set(.builtin(.word, negated: true))
        case "s": return .set(.builtin(.space, negated: false))
        case "S": return .set(.builtin(.space, negated: true))
        case "b": return .assertion(.wordBoundary)
        case "B": return .assertion(.notWordBoundary)
        case "A": return .assertion(.start)
        case "z": return .assertion(.end)
        case "Z": return .assertion(.endOrFinalTerminator)
        case "1"..."9":
            throw unsupported("the backreference `\\\(next)` at offset \(start)")
        case "k":
            throw unsupported("the named backreference `\\k` at offset \(start)")
        default:
            return .scalar(try parseScalarEscape(next, start: start))
        }
    }

    /// An escape that stands for one scalar (shared with classes): `\n`, `\x41`, `\u{1F600}`, `\.`.
    private mutating func parseScalarEscape(_ next: Unicode.Scalar, start: Int) throws(RegexSyntaxError)
        -> Unicode.Scalar
    {
        switch next {
        case "t": return "\t"
        case "n": return "\n"
        case "r": return "\r"
        case "f": return "\u{0C}"
        case "a": return "\u{07}"
        case "e": return "\u{1B}"
        case "0":
            var value: UInt32 = 0
            var digits = 0
            while digits < 3, let octal = peek, ("0"..."7").contains(octal) {
                value = value * 8 + (octal.value - 0x30)
                digits += 1
                position += 1
            }
            return Unicode.Scalar(value)!
        case "x":
            if peek == "{" { return try parseBracedHex(start: start) }
            return try parseHex(count: 2, start: start)
        case "u":
            if peek == "{" { return try parseBracedHex(start: start) }
            return try parseHex(count: 4, start: start)
        case "U":
            return try parseHex(count: 8, start: start)
        default:
            if next.isASCII && (next.properties.isAlphabetic || ("0"..."9").contains(next)) {
                throw unsupported("the escape `\\\(next)` at offset \(start)")
            }
            return next  // `\.`, `\/`, `\-`...: the character itself
        }
    }

    private mutating func parseHex(count: Int, start: Int) throws(RegexSyntaxError) -> Unicode.Scalar {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let next = peek, let digit = next.hexDigitValue else {
                throw failure("the escape at offset \(start) needs \(count) hexadecimal digits")
            }
            value = value &* 16 &+ UInt32(digit)
            position += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw failure("the escape at offset \(start) is not a Unicode scalar")
        }
        return scalar
    }

    private mutating func parseBracedHex(start: Int) throws(RegexSyntaxError) -> Unicode.Scalar {
        position += 1
        var value: UInt32 = 0
        var digits = 0
        while let next = peek, let digit = next.hexDigitValue {
            guard digits < 8 else { throw failure("the escape at offset \(start) is not a Unicode scalar") }
            value = value * 16 + UInt32(digit)
            digits += 1
            position += 1
        }
        guard digits > 0, peek == "}" else {
            throw failure("the escape at offset \(start) needs hexadecimal digits and a closing `}`")
        }
        position += 1
        guard let scalar = Unicode.Scalar(value) else {
            throw failure("the escape at offset \(start) is not a Unicode scalar")
        }
        return scalar
    }

    // MARK: Classes

    private mutating func parseClass(start: Int) throws(RegexSyntaxError) -> RegexCharacterClass {
        var set = RegexCharacterClass()
        if peek == "^" {
            set.isNegated = true
            position += 1
        }
        var first = true
        while true {
            guard let next = peek else { throw failure("missing `]` for the class opened at offset \(start)") }
            if next == "]" && !first {
                position += 1
                return set
            }
            first = false
            let itemStart = position
            if next == "[" {
                throw unsupported("the nested class or set operation at offset \(itemStart)")
            }
            if next == "&" && position + 1 < scalars.count && scalars[position + 1] == "&" {
                throw unsupported("the class intersection `&&` at offset \(itemStart)")
            }
            position += 1
            var low: Unicode.Scalar = next
            if next == "\\" {
                guard let escaped = peek else { throw failure("missing `]` for the class opened at offset \(start)") }
                position += 1
                switch escaped {
                case "d", "D":
                    set.insert(.digit, negated: escaped == "D")
                    continue
                case "w", "W":
                    set.insert(.word, negated: escaped == "W")
                    continue
                case "s", "S":
                    set.insert(.space, negated: escaped == "S")
                    continue
                case "b": low = "\u{08}"
                default: low = try parseScalarEscape(escaped, start: itemStart)
                }
            }
            // A `-` is a range only between two characters; first or last it is itself.
            if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                position += 1
                let highStart = position
                var high = scalars[position]
                position += 1
                if high == "[" { throw unsupported("the nested class or set operation at offset \(highStart)") }
                if high == "\\" {
                    guard let escaped = peek else {
                        throw failure("missing `]` for the class opened at offset \(start)")
                    }
                    position += 1
                    switch escaped {
                    case "d", "D", "w", "W", "s", "S":
                        throw failure("invalid range at offset \(itemStart): `\\\(escaped)` cannot end a range")
                    case "b": high = "\u{08}"
                    default: high = try parseScalarEscape(escaped, start: highStart)
                    }
                }
                guard low.value <= high.value else {
                    throw failure(
                        "invalid range `\(text(itemStart..<position))` at offset \(itemStart): its start is after its end"
                    )
                }
                set.insert(low.value...high.value)
            } else {
                set.insert(low.value...low.value)
            }
        }
    }

    // MARK: Helpers

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func text(_ range: Range<Int>) -> String {
        var result = ""
        result.unicodeScalars.append(
            contentsOf: scalars[max(0, range.lowerBound)..<min(scalars.count, range.upperBound)])
        return result
    }

    private func failure(_ reason: String) -> RegexSyntaxError {
        RegexSyntaxError(pattern: pattern, reason: reason)
    }

    /// A construct that needs backtracking (or that this engine leaves out), named with the
    /// syntax that is available instead.
    private func unsupported(_ construct: String) -> RegexSyntaxError {
        failure(
            "\(construct) is not supported: stub patterns run on a linear-time engine without backtracking "
                + "(supported: literals, escapes, `.`, `[...]`, `\\d \\w \\s`, `^ $ \\b`, groups, `|`, `* + ? {m,n}`, `(?i)`)"
        )
    }
}

extension Unicode.Scalar {
    /// 0-15 for `0-9a-fA-F`, else nil.
    var hexDigitValue: Int? {
        switch value {
        case 0x30...0x39: return Int(value - 0x30)
        case 0x41...0x46: return Int(value - 0x41 + 10)
        case 0x61...0x66: return Int(value - 0x61 + 10)
        default: return nil
        }
    }
}
