/// Every error found while loading stubs. Loading is all-or-nothing, so a failure means nothing
/// was replaced.
public struct StubLoadFailure: Error, Sendable, CustomStringConvertible {
    /// The errors, in file order and then document order.
    public var errors: [StubFileError]

    /// Creates a failure from its errors.
    public init(errors: [StubFileError]) {
        self.errors = errors
    }

    /// One line per error.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
