/// Reads stub files into a ``StubSet``, all-or-nothing, reporting every error it finds.
public enum StubLoader {
    /// Loads files and directories (every `*.json` below a directory, recursively, in path order).
    public static func load(paths: [String]) throws(StubLoadFailure) -> StubSet {
        StubSet()
    }

    /// Parses one stub document. `root` is the directory `bodyFile` paths may not escape
    /// (`nil`: the directory holding `file`).
    public static func parse(bytes: [UInt8], file: String, root: String?) throws(StubLoadFailure) -> StubSet {
        StubSet()
    }
}
