import Foundation

/// Where the tests find their fixtures and the built `understudy` binary.
enum TestPaths {
    /// `Tests/UnderstudyServerTests/Fixtures`, located from this source file.
    static let fixtures: String = {
        let here = URL(fileURLWithPath: #filePath)
        return here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures").path
    }()

    static func fixture(_ relative: String) -> String {
        fixtures + "/" + relative
    }

    /// The `understudy` executable beside the test bundle (the test target depends on it).
    static let binary: String = {
        if let override = ProcessInfo.processInfo.environment["UNDERSTUDY_BIN"] { return override }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // The xctest runner may be the bundle's own executable or live inside it.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("understudy").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return executable.deletingLastPathComponent().appendingPathComponent("understudy").path
    }()

    /// A fresh empty directory under the system temporary directory.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "understudy-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
