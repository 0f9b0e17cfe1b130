#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyCore

/// The stub paths `serve` and `check` load when given none: the `stubs` directory of the current
/// directory. When that default is missing, the loader's bare "no such file or directory" would
/// read as if the user had typed `stubs`; the error says it was the default and how to pass another.
enum DefaultStubPaths {
    /// Loaded when no path is given.
    static let directory = "stubs"

    /// `given`, or the default when it is empty.
    static func paths(_ given: [String]) -> [String] {
        given.isEmpty ? [directory] : given
    }

    /// `failure` with the missing-default error explained; unchanged when paths were given.
    static func explained(_ failure: StubLoadFailure, given: [String], command: String) -> StubLoadFailure {
        guard given.isEmpty else { return failure }
        var failure = failure
        for index in failure.errors.indices
        where failure.errors[index].file == directory
            && failure.errors[index].message == "no such file or directory"
        {
            failure.errors[index].message = """
                no such file or directory: no stub paths were given, so understudy loaded the default \
                `\(directory)` directory of the current directory (\(currentDirectory)); \
                pass stub files or directories instead, e.g. `understudy \(command) path/to/stubs`
                """
        }
        return failure
    }

    private static var currentDirectory: String {
        guard let path = getcwd(nil, 0) else { return "." }
        defer { free(path) }
        return String(cString: path)
    }
}
