/// One stub of the format as every source hands it to the engine: the stub object as written, with
/// where each of its keys and values was written.
///
/// This is the seam between the format and the engine. A stub file's `stubs` array, a body posted
/// to `POST /__admin/stubs` (or a session's `stubs`) and a test kit builder (``Stub/definition``)
/// all become `StubDefinition`s, and UnderstudyStubs' `StubCompiler`, the one compile step, turns
/// each into the engine's runtime stub, checking it as it goes. It is deliberately not a second
/// typed model: the compile step validates and builds the engine's model in one pass, so the
/// format's value is the JSON itself (``json``) and its positions, which errors need to name file,
/// line, column and JSON path. The positions are the parser's: the node keeps every key's and
/// value's line and column beside the value, so nothing is looked up again and a stub that is
/// never wrong costs no table.
public struct StubDefinition: Sendable {
    /// The stub object, each key and value with its position (what the compile step reads).
    package let node: JSONNode
    /// The document it came from, as errors name it: a stub file's path, `"<admin>"` for a posted
    /// body, or the `#fileID` of the Swift file that built it.
    public let file: String
    /// Its index in its document's `stubs` (0 for a built stub), for the id the loader generates
    /// when the stub gives none (`<file>#<index>`).
    public let index: Int
    /// Its place in its document (`stubs[3]`; the root for a built stub), which every error's JSON
    /// path starts with.
    package let path: JSONPath

    /// A stub read from a document: its node, and where in which document it sits.
    package init(node: JSONNode, file: String, index: Int, path: JSONPath) {
        self.node = node
        self.file = file
        self.index = index
        self.path = path
    }

    /// A stub built in code: `json` as if written at `line` of `file` (column 1), so an error in it
    /// names the line that built it.
    public init(json: JSONValue, file: String, line: Int) {
        self.node = JSONNode(json, at: SourcePosition(line: line, column: 1))
        self.file = file
        self.index = 0
        self.path = .root
    }

    /// The stub object as written, without positions.
    public var json: JSONValue { node.value }
}
