/// A stub held by reference for the request path: reading a field through the box does not copy
/// the whole `Stub` (and retain each of its arrays and strings) as reading it out of an array does.
final class StubBox {
    let stub: Stub
    /// `stub.request`, where matching reads it in place: calling `matches` on
    /// `box.stub.request` copied the pattern out of the box first (retaining, then releasing,
    /// each of its fields: about 340 instructions a candidate).
    private let pattern: UnsafeMutablePointer<RequestPattern>

    init(_ stub: Stub) {
        self.stub = stub
        pattern = .allocate(capacity: 1)
        pattern.initialize(to: stub.request)
    }

    deinit {
        pattern.deinitialize(count: 1)
        pattern.deallocate()
    }

    /// Whether the stub's request pattern matches.
    func matches(_ context: MatchContext) -> Bool {
        pattern.pointee.matches(context)
    }
}

@available(*, unavailable)
extension StubBox: Sendable {}
