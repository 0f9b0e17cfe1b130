import Foundation

/// The built `understudy` binary running `serve` in the foreground, for tests.
final class Daemon {
    let process: Process
    let port: Int
    let readinessLine: String
    let stderrPath: String

    /// Starts `understudy serve ARGUMENTS` and waits (with a deadline) for its readiness line.
    init(_ arguments: [String], directory: String) throws {
        stderrPath = directory + "/stderr-\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.binary)
        process.arguments = ["serve"] + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        try process.run()
        guard let line = Daemon.readLine(stdout.fileHandleForReading, timeout: 15) else {
            process.terminate()
            throw DaemonError.notReady(stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
        }
        readinessLine = line
        guard let portText = line.split(separator: ":").last, let port = Int(portText) else {
            throw DaemonError.notReady(stderr: line)
        }
        self.port = port
    }

    var url: String { "http://127.0.0.1:\(port)" }

    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the process to exit; returns its status, or nil on timeout.
    func waitForExit(timeout: TimeInterval = 15) -> Int32? {
        guard waitUntil(timeout: timeout, { !process.isRunning }) else { return nil }
        return process.terminationStatus
    }

    deinit {
        guard process.isRunning else { return }
        process.terminate()
        if !waitUntil(timeout: 5, { !process.isRunning }) {
            kill(process.processIdentifier, SIGKILL)  // never leave a daemon behind a failed test
        }
    }

    /// Reads one line from a pipe, giving up after `timeout` seconds.
    static func readLine(_ handle: FileHandle, timeout: TimeInterval) -> String? {
        var bytes: [UInt8] = []
        let fd = handle.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1 else { return nil }
            if byte == 10 { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}

enum DaemonError: Error {
    case notReady(stderr: String)
}

/// Runs the `understudy` binary to completion.
func runUnderstudy(_ arguments: [String], timeout: TimeInterval = 30) throws -> CurlResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TestPaths.binary)
    process.arguments = arguments
    let directory = try TestPaths.temporaryDirectory()
    let outPath = directory + "/out", errPath = directory + "/err"
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    // Files, not pipes: a detached daemon inherits stderr and would hold a pipe open.
    process.standardOutput = FileHandle(forWritingAtPath: outPath)
    process.standardError = FileHandle(forWritingAtPath: errPath)
    try process.run()
    guard waitUntil(timeout: timeout, { !process.isRunning }) else {
        process.terminate()
        throw DaemonError.notReady(stderr: "understudy \(arguments) did not finish")
    }
    return CurlResult(
        exitCode: process.terminationStatus,
        stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
}
