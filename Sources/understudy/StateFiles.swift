#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The pid and port files a daemon leaves for the tools that drive it.
enum StateFiles {
    /// Writes `contents` to `path` atomically (a temporary file in the same directory, then
    /// rename), so a reader never sees a half-written port number.
    /// A path that names something other than a regular file (a FIFO a harness reads, `/dev/stdout`,
    /// `/dev/null`) is written in place instead: a rename would replace the device or FIFO with a file.
    static func writeAtomically(_ contents: String, to path: String) throws(StateFileError) {
        if isSpecial(path) { return try writeInPlace(contents, to: path) }
        let temporary = "\(path).tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StateFileError(path: path, errno: errno) }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let code = errno
        close(fd)
        guard written == bytes.count else {
            unlink(temporary)
            throw StateFileError(path: path, errno: code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw StateFileError(path: path, errno: code)
        }
    }

    /// Removes `path`, ignoring a file that is already gone; a device or FIFO is left where it is.
    static func remove(_ path: String?) {
        guard let path, !isSpecial(path) else { return }
        unlink(path)
    }

    /// Whether `path` exists and is not a regular file (following symbolic links).
    static func isSpecial(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_mode & S_IFMT != S_IFREG
    }

    private static func writeInPlace(_ contents: String, to path: String) throws(StateFileError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StateFileError(path: path, errno: errno) }
        defer { close(fd) }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw StateFileError(path: path, errno: errno) }
    }

    /// Reads a whole small file as text; nil (with `errno` set) when it cannot be opened.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count <= 0 { break }
            result += chunk[..<count]
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// A pid or port file that could not be written.
struct StateFileError: Error, CustomStringConvertible {
    var path: String
    var errno: Int32
    var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
}
