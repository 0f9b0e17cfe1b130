/// One problem found in a stub file, with enough position to jump to it in an editor.
public struct StubFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as given to the loader (`"<admin>"` for stubs posted to the admin API).
    public var file: String
    /// 1-based line of the offending key or value.
    public var line: Int
    /// 1-based column of the offending key or value.
    public var column: Int
    /// Where in the document, e.g. `stubs[2].responses[0].status`; `""` for the root.
    public var jsonPath: String
    /// What is wrong and what was expected.
    public var message: String
    /// The closest known key, for an unknown key that looks like a typo.
    public var suggestion: String?
    /// Whether loading stops on it (`.error`) or goes on after saying so (`.warning`: a WireMock
    /// leniency, or a mapping skipped because it uses something Understudy lacks).
    public var severity = Severity.error

    /// How serious a problem is.
    public enum Severity: String, Sendable {
        /// Loading refuses the files.
        case error
        /// Loading goes on; the line is printed at start-up and by `understudy check`.
        case warning
    }

    /// Creates an error.
    public init(file: String, line: Int, column: Int, jsonPath: String, message: String, suggestion: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.jsonPath = jsonPath
        self.message = message
        self.suggestion = suggestion
    }

    /// `file:line:column: error: message (at path)` (`warning:` for a warning), the shape compilers
    /// use so editors can link it.
    public var description: String {
        let at = jsonPath.isEmpty ? "" : " (at \(jsonPath))"
        return "\(file):\(line):\(column): \(severity.rawValue): \(message)\(at)"
    }
}
