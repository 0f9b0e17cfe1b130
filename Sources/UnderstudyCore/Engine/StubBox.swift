/// A stub held by reference for the request path: reading a field through the box does not copy
/// the whole `Stub` (and retain each of its arrays and strings) as reading it out of an array does.
final class StubBox {
    let stub: Stub

    init(_ stub: Stub) {
        self.stub = stub
    }
}

@available(*, unavailable)
extension StubBox: Sendable {}
