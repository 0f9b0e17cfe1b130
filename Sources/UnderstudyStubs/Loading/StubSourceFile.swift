/// A file the loader was given or found, with the directory it was found under.
struct StubSourceFile: Sendable, Equatable {
    /// The path as errors show it (as given, or the directory joined with the relative path).
    var path: String
    /// The loaded directory the file was found under; `nil` for a file named explicitly.
    var root: String?

    /// Whether the file was found by walking a loaded directory (not named explicitly).
    var foundInDirectory: Bool { root != nil }

    /// The directory names between the loaded directory and the file (`["a", "b"]` for
    /// `root/a/b/c.json`); empty for a file named explicitly.
    var directoriesBelowRoot: [Substring] {
        guard let root else { return [] }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard path.hasPrefix(prefix) else { return [] }
        return path.dropFirst(prefix.count).split(separator: "/").dropLast()
    }
}
