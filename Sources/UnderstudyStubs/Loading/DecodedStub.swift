/// One stub as a decoder saw it: the stub when it decoded cleanly, and always its id and where
/// the id was written, so duplicate ids are reported even for stubs that have other errors.
package struct DecodedStub {
    /// The stub; `nil` when it has errors (reported by the decoder).
    package var stub: Stub?
    /// The id given, or the generated `<file>#<index>`.
    package var id: String
    /// Whether `id` was generated because the stub gave none.
    var idGenerated: Bool
    /// The file the stub is in.
    package var file: String
    /// Where the id was written (the stub object itself for a generated id).
    package var idPosition: SourcePosition
    /// The stub's path in its document (`stubs[3]`).
    var path: JSONPath
    /// For a WireMock mapping that gives its own id: the id derived from its file and index, which
    /// it takes instead when another mapping already has its id (WireMock serves both).
    package var wireMockDerivedID: String? = nil

    package init(
        stub: Stub?, id: String, idGenerated: Bool, file: String, idPosition: SourcePosition, path: JSONPath,
        wireMockDerivedID: String? = nil
    ) {
        self.stub = stub
        self.id = id
        self.idGenerated = idGenerated
        self.file = file
        self.idPosition = idPosition
        self.path = path
        self.wireMockDerivedID = wireMockDerivedID
    }

    /// The JSON path a duplicate-id error points at.
    package var idPath: String {
        (idGenerated ? path : path.member("id")).text
    }
}
