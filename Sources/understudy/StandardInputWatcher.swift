#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyServer

/// `serve --exit-on-stdin-eof`: stops the server, exactly as SIGTERM does, once standard input
/// reaches end of file.
///
/// A test process that launches the daemon gives it a pipe as stdin and never writes to it. The
/// kernel closes the write end when that process dies for any reason — SIGKILL included, which
/// no handler can see — so the daemon notices through EOF and goes with it. This works the same
/// on Linux and macOS, unlike a parent-death signal (Linux only, and tied to the spawning
/// *thread*, not the process).
enum StandardInputWatcher {
    /// Reads (and discards) stdin on a thread of its own until EOF or a read error, then asks the
    /// server to stop. A blocking read on its own thread works for every kind of stdin — a pipe,
    /// a terminal, `/dev/null` (EOF at once) or a regular file — where an event-loop watch would
    /// be refused for regular files.
    static func stopAtEndOfInput(_ controller: ServerController) {
        let context = Unmanaged.passRetained(controller).toOpaque()
        let result = startDetachedThread(context)
        guard result != 0 else { return }
        // Without the watcher the daemon would outlive its parent unnoticed: say so, and stop
        // rather than run unwatched.
        Unmanaged<ServerController>.fromOpaque(context).release()
        Console.error("understudy: --exit-on-stdin-eof: cannot start the stdin watcher (error \(result)); stopping")
        controller.stop()
    }

    /// Runs the watch on a detached thread that owns one retain of the controller in `context`;
    /// returns `pthread_create`'s result.
    private static func startDetachedThread(_ context: UnsafeMutableRawPointer) -> Int32 {
        #if canImport(Darwin)
        var thread: pthread_t?
        let result = pthread_create(
            &thread, nil,
            { context in
                StandardInputWatcher.watch(context)
                return nil
            }, context)
        if result == 0, let thread { pthread_detach(thread) }
        #else
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                StandardInputWatcher.watch(context)
                return nil
            }, context)
        if result == 0 { pthread_detach(thread) }
        #endif
        return result
    }

    /// The watcher thread's body: takes over the retain in `context`.
    private static func watch(_ context: UnsafeMutableRawPointer) {
        let controller = Unmanaged<ServerController>.fromOpaque(context).takeRetainedValue()
        drainUntilEndOfFile()
        controller.stop()
    }

    /// Returns at end of file, or at any read error other than an interruption (a closed or
    /// unreadable stdin can never report the parent's exit, so it counts as EOF).
    private static func drainUntilEndOfFile() {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count > 0 { continue }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // A non-blocking stdin inherited from the parent: wait until it is readable.
                var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, -1)
                continue
            }
            return
        }
    }
}
