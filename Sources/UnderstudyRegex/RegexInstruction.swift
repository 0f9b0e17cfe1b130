/// One step of a compiled pattern (Thompson's construction).
enum RegexInstruction: Sendable {
    /// Consume this scalar.
    case scalar(Unicode.Scalar)
    /// Consume any scalar but a line terminator.
    case any
    /// Consume a scalar of the class at this index of ``RegexProgram/classes``.
    case set(Int)
    /// Continue at both targets.
    case split(Int, Int)
    /// Continue at the target.
    case jump(Int)
    /// Continue at the next instruction only where the assertion holds.
    case assert(RegexAssertion)
    /// The pattern matched (when the text is used up).
    case match
}
