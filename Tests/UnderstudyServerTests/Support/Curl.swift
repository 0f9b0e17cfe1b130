import Foundation

/// What a `curl` run printed and how it exited.
struct CurlResult {
    var exitCode: Int32
    var stdout: String
    var stderr: String
}

/// Runs `curl` with the given arguments (always silent, with a timeout).
func curl(_ arguments: [String], input: Data? = nil) throws -> CurlResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["curl", "-sS", "--max-time", "10"] + arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inputPipe = Pipe()
    if input != nil { process.standardInput = inputPipe }
    try process.run()
    if let input {
        inputPipe.fileHandleForWriting.write(input)
        try inputPipe.fileHandleForWriting.close()
    }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CurlResult(
        exitCode: process.terminationStatus,
        stdout: String(decoding: stdout, as: UTF8.self),
        stderr: String(decoding: stderr, as: UTF8.self))
}
