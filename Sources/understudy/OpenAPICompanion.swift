#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation

/// `understudy-openapi`, the binary that holds the OpenAPI commands (OpenAPIKit and Yams read and judge
/// specs), found beside this one as git finds its `git-*` commands, else on `PATH`. Kept apart so the
/// daemon links neither: every start of `understudy serve` would pay for them (their conformance
/// records are scanned on the first casts; scripts/benchmark/RESULTS.md).
enum OpenAPICompanion {
    static let name = "understudy-openapi"

    /// The companion's path, or nil when it is neither beside this binary nor on `PATH`.
    static func locate() -> String? {
        var directories: [String] = []
        if let binary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append((binary as NSString).deletingLastPathComponent)
        }
        if let first = CommandLine.arguments.first, first.contains("/") {
            directories.append((first as NSString).deletingLastPathComponent)
        }
        directories += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return directories.map { $0 + "/" + name }.first { access($0, X_OK) == 0 }
    }

    private static func missing() -> ExitCode {
        Console.error(
            "understudy: --openapi needs \(name), which `swift build` builds beside understudy "
                + "(`swift build --product \(name)` builds it alone); it is neither beside this binary nor on PATH")
        return ExitCode(1)
    }

    /// Becomes `understudy-openapi ARGUMENTS` (exec): its output and exit status are the command's.
    static func exec(_ arguments: [String]) throws -> Never {
        guard let path = locate() else { throw missing() }
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(path, argv)
        Console.error("understudy: cannot run \(path): \(String(cString: strerror(errno)))")
        throw ExitCode(1)
    }

    /// Runs `understudy-openapi ARGUMENTS` and returns its exit status and standard output; its
    /// standard error is ours (located errors reach the user as it writes them).
    static func run(_ arguments: [String]) throws -> (status: Int32, output: [UInt8]) {
        guard let path = locate() else { throw missing() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        // Read to the end before waiting: a contract of megabytes would fill the pipe.
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, [UInt8](output))
    }
}
