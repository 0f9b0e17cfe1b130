import Foundation

/// Polls a condition until it holds or a deadline passes; the tests' only way to wait for
/// something they cannot be signalled about (a file appearing, a process exiting).
func waitUntil(timeout: TimeInterval = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(5_000)
    }
    return try condition()
}

/// Milliseconds elapsed while running `body`.
func timed<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let value = try await body()
    return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
}

/// Whether `pid` has ended: it no longer exists, or it has exited and waits as a zombie for a
/// parent that has not reaped it yet (a detached daemon's parent is whatever adopted it).
func processHasEnded(_ pid: pid_t) -> Bool {
    if kill(pid, 0) != 0 && errno == ESRCH { return true }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
    return state == "Z" || state == "X"
}
