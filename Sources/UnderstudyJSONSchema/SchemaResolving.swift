import UnderstudyJSON

/// A schema found by a `$ref`: the document it is in and its pointer there.
public struct ResolvedSchema: Sendable {
    /// The document's name (`""` for the root document).
    public var document: String
    /// The pointer to the schema in that document (`#/components/schemas/Pet`).
    public var pointer: String
    /// The schema.
    public var schema: JSONValue

    /// A resolved schema.
    public init(document: String, pointer: String, schema: JSONValue) {
        self.document = document
        self.pointer = pointer
        self.schema = schema
    }
}

/// Finds what a `$ref` names. The validator asks it for every `$ref` it meets.
public protocol SchemaResolving: Sendable {
    /// The schema `reference` names, written in `document`; `nil` when it names nothing.
    func resolve(_ reference: String, from document: String) -> ResolvedSchema?
}

/// Resolves `#…` pointers within one document only.
public struct SingleDocumentResolver: SchemaResolving {
    /// The document.
    public var root: JSONValue

    /// A resolver over `root`.
    public init(root: JSONValue) { self.root = root }

    /// The value a `#…` pointer names in ``root``; `nil` for anything else (no other documents here).
    public func resolve(_ reference: String, from document: String) -> ResolvedSchema? {
        guard reference.hasPrefix("#"), let schema = JSONPointer.resolve(reference, in: root) else { return nil }
        return ResolvedSchema(document: document, pointer: reference, schema: schema)
    }
}
