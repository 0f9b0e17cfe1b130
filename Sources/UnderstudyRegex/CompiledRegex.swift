/// A regular expression compiled once at load time and matched by Understudy's own linear-time
/// engine (see ``RegexProgram``): a stub's pattern can never make a request hang, whatever text
/// it meets.
///
/// The syntax is the common core of ICU/PCRE: literals and escapes, `.`, classes, `\d \w \s`
/// (and negations), `^ $ \A \z \Z \b \B`, groups, `|`, and `* + ? {m} {m,} {m,n}`. Constructs that
/// need backtracking — backreferences, lookaround, atomic groups, possessive quantifiers — are
/// refused with a ``RegexSyntaxError`` naming them, as are patterns over ``RegexLimits``.
public final class CompiledRegex: Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let program: RegexProgram

    /// Compiles `pattern`; the error says what is wrong or unsupported, and where.
    public init(_ pattern: String) throws(RegexSyntaxError) {
        self.pattern = pattern
        self.program = try RegexProgram(pattern: pattern)
    }

    /// Whether the whole of `text` matches (never just a part of it).
    public func matchesWhole(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { program.matchesWhole($0) }
    }

    /// The NFA simulation alone, bypassing the cached DFA: for tests that compare the two.
    func matchesWholeWithoutCache(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { program.matchesWhole($0, cached: false) }
    }

    public var description: String { pattern }
}
