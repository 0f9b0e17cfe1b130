import Foundation

/// Lines to the standard streams. This is a batch tool: stdout is flushed at exit, and errors go
/// to stderr unbuffered.
enum ToolOutput {
    static func out(_ line: String) {
        print(line)
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
