#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread-safe handle that asks a running ``HTTPServer`` to stop gracefully.
///
/// The event loop is single-threaded, so another thread cannot touch it; instead this writes a
/// byte to a pipe the loop watches. The write end belongs to the controller, so a stop requested
/// after the server is gone writes into a pipe nobody reads and is harmless.
public final class ServerController: Sendable {
    private let writeEnd: Int32

    init(writeEnd: Int32) {
        self.writeEnd = writeEnd
    }

    deinit {
        close(writeEnd)
    }

    /// Asks the server to stop accepting, finish in-flight responses and return from `run()`.
    public func stop() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
