/// What `POST /__admin/stubs` did.
public struct AddedStubs: Codable, Sendable, Equatable {
    /// The ids of the stubs that were new.
    public var added: [String]
    /// The ids of the stubs that replaced a stub with the same id (their sequences restart).
    public var replaced: [String]

    /// An answer with these ids.
    public init(added: [String], replaced: [String]) {
        self.added = added
        self.replaced = replaced
    }
}
