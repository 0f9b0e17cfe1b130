import Foundation

/// Rewrites a file in place, over and over, alternating between versions and writing each in two
/// halves, so a reader can catch it empty, half-written or whole.
final class FileRewriter: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var count = 0
    private var done = false

    init(path: String, versions: [String]) {
        Thread.detachNewThread { [self] in
            var index = 0
            while lock.withLock({ running }) {
                let bytes = Array(versions[index % versions.count].utf8)
                let fd = open(path, O_WRONLY | O_TRUNC | O_CREAT, 0o644)
                if fd >= 0 {
                    let half = bytes.count / 2
                    bytes.withUnsafeBytes { raw in
                        _ = Glibc.write(fd, raw.baseAddress, half)
                        sched_yield()
                        _ = Glibc.write(fd, raw.baseAddress! + half, bytes.count - half)
                    }
                    close(fd)
                }
                index += 1
                lock.withLock { count += 1 }
            }
            lock.withLock { done = true }
        }
    }

    /// How many times the file was rewritten.
    var writes: Int { lock.withLock { count } }

    /// Stops rewriting and waits for the last write to finish.
    func stop() {
        lock.withLock { running = false }
        _ = waitUntil(timeout: 10) { lock.withLock { done } }
    }
}
