#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser

/// `understudy-openapi`, the binary that holds the OpenAPI commands (OpenAPIKit and Yams read and judge
/// specs), found beside this one as git finds its `git-*` commands, else on `PATH`; `UNDERSTUDY_OPENAPI_BIN`
/// names it outright (as `GIT_EXEC_PATH` does for git), which is how this package's tests run a debug
/// daemon with the optimised companion (docs/development.md, "Package traits"). Kept apart so the
/// daemon links neither: every start of `understudy serve` would pay for them (their conformance
/// records are scanned on the first casts; scripts/benchmark/RESULTS.md).
enum OpenAPICompanion {
    static let name = "understudy-openapi"

    /// The environment variable that names the companion's path, ahead of the search.
    static let variable = "UNDERSTUDY_OPENAPI_BIN"

    /// The companion's path: `UNDERSTUDY_OPENAPI_BIN` when set and non-empty (whether or not it is there:
    /// a named path that is missing is an error, not a cue to run another binary), else the first
    /// `understudy-openapi` beside this binary or on `PATH`, else nil.
    static func locate() -> String? {
        if let named = getenv(variable), named.pointee != 0 {
            return String(cString: named)
        }
        var directories: [String] = []
        if let binary = executablePath() {
            directories.append(directory(of: binary))
        }
        if let first = CommandLine.arguments.first, first.contains("/") {
            directories.append(directory(of: first))
        }
        if let path = getenv("PATH") {
            directories += String(cString: path).split(separator: ":").map(String.init)
        }
        return directories.map { $0 + "/" + name }.first { access($0, X_OK) == 0 }
    }

    /// This process's binary as the kernel has it (`/proc/self/exe`), or nil where there is no `/proc`.
    private static func executablePath() -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let length = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count) }
        }
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length], as: UTF8.self)
    }

    /// `path` without its last component ("/usr/bin/understudy" -> "/usr/bin", "/understudy" -> "/").
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// " (UNDERSTUDY_OPENAPI_BIN)" when the variable named the path that cannot be run, so the error says
    /// where the path came from.
    private static var namedBy: String {
        if let named = getenv(variable), named.pointee != 0 { return " (\(variable))" }
        return ""
    }

    private static func missing() -> ExitCode {
        Console.error(
            "understudy: --openapi needs \(name), which `swift build --traits OpenAPI` builds beside understudy "
                + "(`swift build --traits OpenAPI --product \(name)` builds it alone); it is neither beside this "
                + "binary nor on PATH")
        return ExitCode(1)
    }

    /// Becomes `understudy-openapi ARGUMENTS` (exec): its output and exit status are the command's.
    static func exec(_ arguments: [String]) throws -> Never {
        guard let path = locate() else { throw missing() }
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(path, argv)
        Console.error("understudy: cannot run \(path)\(namedBy): \(String(cString: strerror(errno)))")
        throw ExitCode(1)
    }

    /// Runs `understudy-openapi ARGUMENTS` and returns its exit status and standard output; its
    /// standard error is ours (located errors reach the user as it writes them). posix_spawn rather than
    /// Foundation's `Process`, which only full Foundation has: the daemon links FoundationEssentials alone.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: [UInt8]) {
        guard let path = locate() else { throw missing() }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw failure(path, errno) }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) }
        argv.append(nil)
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        let spawned = posix_spawn(&child, path, &actions, nil, argv, environ)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            throw failure(path, spawned)
        }
        // Read to the end before waiting: a contract of megabytes would fill the pipe.
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                output += chunk[..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(readEnd)
        var status: Int32 = 0
        var waited: pid_t
        repeat { waited = waitpid(child, &status, 0) } while waited < 0 && errno == EINTR
        guard waited == child else { throw failure(path, errno) }
        // WIFEXITED/WEXITSTATUS by hand (the C macros are not imported): the exit code, else 128 + signal.
        let signal = status & 0x7F
        return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, output)
    }

    private static func failure(_ path: String, _ code: Int32) -> ExitCode {
        Console.error("understudy: cannot run \(path)\(namedBy): \(String(cString: strerror(code)))")
        return ExitCode(1)
    }
}
