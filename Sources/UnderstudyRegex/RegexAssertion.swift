/// A zero-width test at a position of the text.
enum RegexAssertion: Sendable {
    /// `^`, `\A`: the start of the text (patterns are single-line, as ICU's default).
    case start
    /// `$`, `\Z`: the end of the text, or just before a final line terminator.
    case endOrFinalTerminator
    /// `^` under `(?m)`: the start of the text or of a line.
    case lineStart
    /// `$` under `(?m)`: the end of the text or of a line.
    case lineEnd
    /// `\z`: the very end of the text.
    case end
    /// `\b`: a word scalar on exactly one side.
    case wordBoundary
    /// `\B`: not a word boundary.
    case notWordBoundary
}
