/// Bounds on what a stub's pattern may cost, checked when the stub loads: matching is linear in
/// the text times the compiled size, so bounding the size bounds every match.
public enum RegexLimits {
    /// The longest pattern, in Unicode scalars.
    public static let maxPatternLength = 4_096
    /// The largest count in `{m}`, `{m,}`, `{m,n}`.
    public static let maxRepetitionCount = 1_000
    /// The most instructions a compiled pattern may have (counted repetitions are copied out).
    public static let maxProgramSize = 20_000
    /// The deepest nesting of groups (the parser recurses once per level).
    public static let maxGroupDepth = 100
}
