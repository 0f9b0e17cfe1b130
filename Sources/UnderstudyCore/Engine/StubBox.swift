/// A stub held by reference for the request path: reading a field through the box does not copy
/// the whole `Stub` (and retain each of its arrays and strings) as reading it out of an array does.
final class StubBox {
    let stub: Stub
    /// `stub.request`, where matching reads it in place: calling `matches` on
    /// `box.stub.request` copied the pattern out of the box first (retaining, then releasing,
    /// each of its fields: about 340 instructions a candidate).
    private let pattern: UnsafeMutablePointer<RequestPattern>
    /// Whether the pattern is only an exact path (and perhaps a method): ``StubIndex`` finds such
    /// a stub by its path and checks its method, the very comparisons `matches` would make, so
    /// being its candidate is matching it.
    let decidedByIndex: Bool

    init(_ stub: Stub) {
        self.stub = stub
        let request = stub.request
        if case .exact? = request.path, request.query.isEmpty, request.headers.isEmpty, request.cookies.isEmpty,
           request.body == nil {
            decidedByIndex = true
        } else {
            decidedByIndex = false
        }
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
