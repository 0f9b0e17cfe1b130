import Foundation

/// Finds the `understudy` executable for `Understudy.launch`.
public enum UnderstudyBinaryLocator {
    /// `UNDERSTUDY_BIN` if set; otherwise the first `understudy` beside the running test binary
    /// (SwiftPM builds it into the same directory when the test target depends on it).
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(UnderstudyError) -> String
    {
        if let explicit = environment["UNDERSTUDY_BIN"], !explicit.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: explicit) else {
                throw .binaryNotFound(searched: ["UNDERSTUDY_BIN=\(explicit) (not an executable file)"])
            }
            return explicit
        }
        let candidates = candidateDirectories().map { ($0 as NSString).appendingPathComponent("understudy") }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            return found
        }
        throw .binaryNotFound(searched: candidates)
    }

    /// Directories that may hold the test binary, most specific first, without duplicates.
    static func candidateDirectories() -> [String] {
        var directories: [String] = []
        func add(_ path: String?) {
            guard let path, !path.isEmpty else { return }
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty, !directories.contains(directory) { directories.append(directory) }
        }
        // Linux runs the `.xctest` file itself; /proc/self/exe is it, in the bin directory.
        add(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        add(CommandLine.arguments.first.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        // macOS loads `X.xctest/Contents/MacOS/X` into xctest; the bundle sits in the bin directory.
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            add(bundle.bundlePath)
        }
        add(Bundle.main.executablePath)
        return directories
    }
}
