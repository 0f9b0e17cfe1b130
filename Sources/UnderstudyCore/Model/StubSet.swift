/// A validated, ordered set of stubs, ready to hand to an engine. Order is load order, which is
/// the order stubs are tried in.
public struct StubSet: Sendable {
    /// The stubs in load order.
    public internal(set) var stubs: [Stub]

    /// Creates a set from stubs already validated (ids unique).
    init(stubs: [Stub]) {
        self.stubs = stubs
    }

    /// An empty set: every request goes unmatched.
    public init() {
        self.stubs = []
    }

    /// How many stubs the set holds.
    public var count: Int { stubs.count }
}
