/// The parsed form of a pattern, before it is compiled to a ``RegexProgram``.
indirect enum RegexNode: Sendable {
    /// Matches the empty string (an empty alternative, `()`).
    case empty
    /// One Unicode scalar.
    case scalar(Unicode.Scalar)
    /// `.`: any scalar but a line terminator.
    case any
    /// A class: `[a-z]`, `\d`, `[^\s]`.
    case set(RegexCharacterClass)
    /// A zero-width test: `^`, `$`, `\b`.
    case assertion(RegexAssertion)
    /// Each node in turn.
    case concatenation([RegexNode])
    /// Any one of the nodes.
    case alternation([RegexNode])
    /// `node{min,max}`; `max == nil` is unbounded.
    case repetition(RegexNode, min: Int, max: Int?)
}
