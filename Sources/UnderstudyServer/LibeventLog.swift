#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent

/// libevent's own log messages, written to stderr at most once per second: a failure repeated
/// on every loop pass (accept() without descriptors, say) must not flood the output. Messages
/// suppressed in between are counted and reported with the next one written.
enum LibeventLog {
    nonisolated(unsafe) private static var lastWritten: Int = -1
    nonisolated(unsafe) private static var suppressed = 0
    nonisolated(unsafe) private static var installed = false

    /// Routes libevent's log through ``note(_:)``. Idempotent; call from the loop thread.
    static func install() {
        guard !installed else { return }
        installed = true
        event_set_log_callback { severity, message in
            guard severity >= Int32(EVENT_LOG_WARN) else { return }
            let text = message.map { String(cString: $0) } ?? ""
            LibeventLog.note(text)
        }
    }

    /// Writes `message` to stderr unless one was written less than a second ago.
    static func note(_ message: String) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let second = Int(now.tv_sec)
        guard second != lastWritten else {
            suppressed += 1
            return
        }
        lastWritten = second
        var line = "[libevent] " + message
        if suppressed > 0 { line += " (\(suppressed) similar messages suppressed)" }
        suppressed = 0
        line += "\n"
        var bytes = Array(line.utf8)
        _ = write(2, &bytes, bytes.count)
    }
}
