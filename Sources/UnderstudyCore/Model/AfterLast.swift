/// What a stub does once it has served its last response.
public enum AfterLast: String, Sendable, CaseIterable {
    /// Keep serving the last response (the default).
    case `repeat`
    /// Start over from the first response.
    case cycle
    /// Stop matching, so later stubs or the unmatched response answer ("respond N times, then fail").
    case exhaust
}
