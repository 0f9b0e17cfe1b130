#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyHTTP

/// Appends journal lines to a JSON Lines file with plain `write(2)`.
///
/// The file is opened `O_APPEND`, so lines from one writer are never interleaved mid-line with a
/// reader's view, and a test can tail the file while the daemon runs. A failed write never crashes
/// the server: the first failure of a burst is reported on stderr and later ones stay quiet until
/// a write succeeds again.
///
/// Inside a batch (``beginJournalBatch()`` … ``endJournalBatch()``, opened by the transport around
/// one pass of its event loop) lines are collected and written together when the batch ends, or
/// sooner once 64 KiB have piled up; outside a batch each line is written at once.
/// Hot stored properties are `@exclusivity(unchecked)`: only the event-loop thread touches them and
/// no access overlaps another, so the runtime's dynamic exclusivity check (~65 instructions per
/// access, several per request) buys nothing.
public final class JournalFileWriter: JournalSink, JournalBatching {
    /// The file being written.
    public let path: String
    private var descriptor: Int32
    private var reportedFailure = false
    @exclusivity(unchecked) private var batching = false
    /// Lines collected in the current batch.
    @exclusivity(unchecked) private var pending: [UInt8] = []
    private static let pendingLimit = 64 * 1024

    /// Opens (creating if needed) `path` for appending.
    public init(path: String) throws(JournalFileError) {
        self.path = path
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            throw JournalFileError(path: path, errno: code, message: String(cString: strerror(code)))
        }
        self.descriptor = fd
    }

    deinit {
        flushPending()
        if descriptor >= 0 { _ = SystemCalls.close(descriptor) }
    }

    /// Writes one line (or, inside a batch, collects it).
    public func write(line: [UInt8]) {
        guard descriptor >= 0 else { return }
        guard batching else {
            writeAll(line)
            return
        }
        pending.append(contentsOf: line)
        if pending.count >= Self.pendingLimit { flushPending() }
    }

    public func beginJournalBatch() {
        batching = true
    }

    public func endJournalBatch() {
        batching = false
        flushPending()
    }

    private func flushPending() {
        guard !pending.isEmpty else { return }
        if descriptor >= 0 { writeAll(pending) }
        pending.removeAll(keepingCapacity: pending.capacity <= 4 * Self.pendingLimit)
    }

    /// Writes `bytes`, looping over partial writes and retrying on `EINTR`.
    private func writeAll(_ bytes: [UInt8]) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = SystemCalls.write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure != 0 {
            if !reportedFailure {
                reportedFailure = true
                let text = "understudy: journal write to \(path) failed: \(String(cString: strerror(failure)))\n"
                _ = text.utf8CString.withUnsafeBufferPointer { SystemCalls.write(2, $0.baseAddress!, $0.count - 1) }
            }
        } else {
            reportedFailure = false
        }
    }

    /// Closes the file; later writes are ignored.
    public func close() {
        flushPending()
        batching = false
        guard descriptor >= 0 else { return }
        _ = SystemCalls.close(descriptor)
        descriptor = -1
    }
}

@available(*, unavailable)
extension JournalFileWriter: Sendable {}

/// The C calls under names that do not collide with the writer's own `write`/`close` methods.
private enum SystemCalls {
    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(fd, buffer, count)
        #elseif canImport(Musl)
        return Musl.write(fd, buffer, count)
        #else
        return Darwin.write(fd, buffer, count)
        #endif
    }

    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.close(fd)
        #elseif canImport(Musl)
        return Musl.close(fd)
        #else
        return Darwin.close(fd)
        #endif
    }
}
