import Foundation

/// `understudy serve` started through `/bin/sh`, for what `Daemon` cannot set up: an environment
/// of its own and a lowered open-file limit (`ulimit` in the shell, then `exec`, so the pid is
/// the daemon's).
final class ShellDaemon {
    let process: Process
    let port: Int
    let stderrPath: String

    init(
        _ arguments: [String], environment: [String: String] = [:], shellPrefix: String = "",
        directory: String
    ) throws {
        stderrPath = directory + "/stderr-\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(shellPrefix) exec \"$0\" serve \"$@\"", TestPaths.binary] + arguments
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "UNDERSTUDY_ADMIN_TOKEN")
        merged.merge(environment) { $1 }
        process.environment = merged
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        try process.run()
        guard let line = Daemon.readLine(stdout.fileHandleForReading, timeout: 15),
            let portText = line.split(separator: ":").last, let port = Int(portText)
        else {
            process.terminate()
            throw DaemonError.notReady(stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
        }
        self.port = port
    }

    var url: String { "http://127.0.0.1:\(port)" }

    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// The soft "Max open files" limit of the running daemon, from /proc.
    var openFileLimit: Int? {
        guard let limits = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8),
            let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") })
        else { return nil }
        return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first.flatMap { Int($0) }
    }

    deinit {
        guard process.isRunning else { return }
        process.terminate()
        if !waitUntil(timeout: 5, { !process.isRunning }) {
            kill(process.processIdentifier, SIGKILL)
        }
    }
}
