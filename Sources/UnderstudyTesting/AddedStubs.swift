/// What `POST /__admin/stubs` did.
public struct AddedStubs: Codable, Sendable, Equatable {
    public var added: [String]
    public var replaced: [String]

    public init(added: [String], replaced: [String]) {
        self.added = added
        self.replaced = replaced
    }
}
