/// A WireMock mapping the loader left out because it uses something Understudy does not have (or
/// is otherwise invalid), while the rest of its root is served: WireMock roots load mapping by
/// mapping unless `--strict` asks for all or nothing. Listed by `GET /__admin/health` and named in
/// the explanation of an unmatched request it might have answered.
public struct SkippedMapping: Sendable {
    /// The mapping file.
    public var file: String
    /// The mapping's index in its file (0 for a file holding one mapping).
    public var index: Int
    /// Every problem found in the mapping; the first is where it starts.
    public var problems: [StubFileError]
    /// The mapping's method, when it names one (`nil`: any, or unreadable).
    var method: String?
    /// The mapping's URL condition, when it could be read (`nil`: any URL, or unreadable).
    var path: PathMatcher?

    /// Creates the record of a skipped mapping; `method` and `path` are what the loader could still
    /// read of its request, for ``mightMatch(method:path:target:)``.
    package init(file: String, index: Int, problems: [StubFileError], method: String?, path: PathMatcher?) {
        self.file = file
        self.index = index
        self.problems = problems
        self.method = method
        self.path = path
    }

    /// Why it was skipped: the first problem's message.
    public var reason: String { problems.first?.message ?? "invalid mapping" }

    /// `file:line:column: warning: skipped WireMock mapping N: reason`, one line for start-up and `check`.
    public var warning: StubFileError {
        var line =
            problems.first
            ?? StubFileError(file: file, line: 1, column: 1, jsonPath: "", message: "invalid mapping")
        let more =
            problems.count > 1 ? " (and \(problems.count - 1) more problem\(problems.count == 2 ? "" : "s"))" : ""
        line.message = "skipped WireMock mapping \(index): \(line.message)\(more)"
        line.severity = .warning
        return line
    }

    /// Whether a request could have been this mapping's, judged by method and URL only (the cheap
    /// part, read on a miss): a mapping whose URL condition could not be read counts as a maybe.
    package func mightMatch(method requestMethod: String, path requestPath: String, target: String) -> Bool {
        if let method, method != requestMethod { return false }
        switch path {
        case nil: return true
        case .exact(let wanted)?: return wanted == requestPath
        case .pattern(let regex)?: return regex.matchesWhole(requestPath)
        case .exactTarget(let wanted)?: return wanted == target
        case .targetPattern(let regex)?: return regex.matchesWhole(target)
        }
    }
}
