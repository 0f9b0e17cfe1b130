#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to the standard streams with `write(2)`, so lines from the event loop and
/// from signal-driven reloads never sit in a stdio buffer (and no global `FILE *` is touched).
enum Console {
    static func out(_ line: String) {
        write(line + "\n", to: 1)
    }

    static func error(_ line: String) {
        write(line + "\n", to: 2)
    }

    private static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
