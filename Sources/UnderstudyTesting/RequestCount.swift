/// How many requests `verify` expects.
public enum RequestCount: Sendable, Equatable, CustomStringConvertible {
    /// Exactly this many.
    case exactly(Int)
    /// This many or more.
    case atLeast(Int)
    /// This many or fewer.
    case atMost(Int)

    /// `exactly(1)`.
    public static let once = RequestCount.exactly(1)
    /// `exactly(0)`.
    public static let never = RequestCount.exactly(0)

    /// Whether `count` satisfies this.
    public func accepts(_ count: Int) -> Bool {
        switch self {
        case .exactly(let n): count == n
        case .atLeast(let n): count >= n
        case .atMost(let n): count <= n
        }
    }

    public var description: String {
        switch self {
        case .exactly(let n): "exactly \(n)"
        case .atLeast(let n): "at least \(n)"
        case .atMost(let n): "at most \(n)"
        }
    }
}
