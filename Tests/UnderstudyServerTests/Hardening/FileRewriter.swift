import Foundation

/// Rewrites a file in place, over and over, alternating between versions and writing each in two
/// halves, so a reader can catch it empty, half-written or whole.
///
/// ``withWholeFile(_:)`` holds the writer between two rewrites, so a test can also prove that a
/// reader which sees a whole file succeeds; without it, a busy machine can land every read
/// mid-rewrite and the "some reads saw a whole file" check becomes a coin toss.
final class FileRewriter: @unchecked Sendable {
    private let condition = NSCondition()
    private var running = true
    private var pauseRequested = false
    private var writing = false
    private var count = 0
    private var done = false

    init(path: String, versions: [String]) {
        Thread.detachNewThread { [self] in
            var index = 0
            while true {
                condition.lock()
                while pauseRequested && running { condition.wait() }
                guard running else {
                    condition.unlock()
                    break
                }
                writing = true
                condition.unlock()

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

                condition.lock()
                writing = false
                count += 1
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            done = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// How many times the file was rewritten.
    var writes: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Runs `body` while the file holds one whole version: waits for the rewrite in progress to
    /// finish and keeps the writer from starting the next until `body` returns.
    func withWholeFile<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        pauseRequested = true
        while writing { condition.wait() }
        condition.unlock()
        defer {
            condition.lock()
            pauseRequested = false
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// Stops rewriting and waits for the last write to finish.
    func stop() {
        condition.lock()
        running = false
        condition.broadcast()
        let deadline = Date().addingTimeInterval(10)
        while !done && condition.wait(until: deadline) {}
        condition.unlock()
    }
}
