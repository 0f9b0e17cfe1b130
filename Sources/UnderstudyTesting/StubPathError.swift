import Foundation

/// A stub file or directory given to `Understudy.session(stubs:)` or the `.understudy(stubs:)`
/// trait that is not on disk. Relative paths are looked up from the test process's current
/// directory (where `swift test` runs: usually the package root), not from the test's source file,
/// so the message names both and how to pass a path that does not depend on either.
public struct StubPathError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The path as given.
    public var path: String
    /// The current directory a relative `path` was resolved against.
    public var currentDirectory: String

    public var description: String {
        if path.hasPrefix("/") {
            return "no stub file or directory at \(path)"
        }
        let resolved = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: currentDirectory, isDirectory: true))
            .standardizedFileURL.path
        return "no stub file or directory at \(path) (looked for \(resolved): relative stub paths are resolved "
            + "against the test process's current directory, \(currentDirectory), usually the package root; "
            + "pass a path relative to it, or an absolute one, e.g. built from #filePath)"
    }

    public var errorDescription: String? { description }
}
