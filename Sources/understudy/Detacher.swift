#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `serve --detach`: starts this same binary in the background with a hidden flag and waits
/// for its readiness line.
///
/// A fresh exec rather than fork(): forking a Swift process that may already run threads is
/// unsafe. The child's stdin is /dev/null and its stdout a pipe to this process; its stderr is
/// ours until it is ready, so start-up errors reach the caller directly. Just before its readiness
/// line the child points stderr at `--log-file` or /dev/null, and just after it stdout at
/// /dev/null, so once the line has reached the caller the daemon holds none of its descriptors
/// (`out=$(understudy serve --detach 2>&1)` returns, as does Python's `capture_output`).
enum Detacher {
    /// Seconds to wait for the child's readiness line before giving up on it.
    static let readinessTimeout: Double = 30

    /// Returns the exit code for the parent: 0 once the child printed its readiness line (which
    /// is printed again here), else the child's failure code, with the child gone.
    static func startInBackground() -> Int32 {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            Console.error("understudy: cannot create a pipe: \(String(cString: strerror(errno)))")
            return 1
        }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        var arguments = Array(CommandLine.arguments.dropFirst()).filter { $0 != "--detach" }
        arguments.append("--detached-child")
        let executable = selfExecutable()
        // The daemon outlives us, so it must not keep any other descriptor we inherited open: a
        // caller waiting for our exit (or EOF) through one of them would wait for the daemon too.
        // This process is about to exit, so marking all of them close-on-exec costs nothing.
        markDescriptorsCloseOnExec(except: [readEnd, writeEnd])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // Start with no signals blocked: the mask is inherited, and ours may block some.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            Console.error("understudy: cannot start \(executable): \(String(cString: strerror(spawned)))")
            return 1
        }
        defer { close(readEnd) }

        if let line = readLine(from: readEnd, timeout: readinessTimeout), line.hasPrefix("understudy listening on ") {
            // The child points its stdout at /dev/null right after the line, which closes the pipe's
            // last write end. Waiting for that EOF means that when this command returns, the daemon
            // already holds nothing but /dev/null (or the log file) on 0, 1 and 2.
            waitForEndOfFile(on: readEnd, timeout: 5)
            Console.out(line)
            return 0
        }
        // No readiness line: the child failed (its error is already on our stderr) or hung.
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            Console.error("understudy: the server did not become ready within \(Int(readinessTimeout))s")
            return 1
        }
        let exited = (status & 0x7f) == 0
        let code = exited ? (status >> 8) & 0xff : 1
        return code == 0 ? 1 : code
    }

    /// Makes `target` (1 or 2) a copy of `descriptor`, which is then closed: the daemon's output
    /// moves to the log file, and the caller's descriptor is let go.
    static func redirect(_ target: Int32, to descriptor: Int32) {
        guard descriptor != target else { return }
        while dup2(descriptor, target) < 0 && errno == EINTR {}
        close(descriptor)
    }

    /// Points `target` (1 or 2) at `path` (`/dev/null`): once the readiness line is out, the
    /// parent that read it exits, and the caller waiting on our output must see it end.
    static func redirect(_ target: Int32, toDevice path: String) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        redirect(target, to: fd)
    }

    private static func markDescriptorsCloseOnExec(except kept: Set<Int32>) {
        guard let directory = opendir("/proc/self/fd") else { return }
        defer { closedir(directory) }
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let fd = Int32(name), fd > 2, !kept.contains(fd) { descriptors.append(fd) }
        }
        for fd in descriptors {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    private static func selfExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return CommandLine.arguments[0]
    }

    /// Reads and discards until end of file or the timeout.
    private static func waitForEndOfFile(on fd: Int32, timeout: Double) {
        let deadline = Monotonic.seconds() + timeout
        var scratch = [UInt8](repeating: 0, count: 256)
        while true {
            let remaining = deadline - Monotonic.seconds()
            guard remaining > 0 else { return }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, min(remaining, 1) * 1000)))
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return }
            if ready == 0 { continue }
            let count = read(fd, &scratch, scratch.count)
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return }
        }
    }

    /// Reads up to the first newline, or nil on EOF or timeout.
    private static func readLine(from fd: Int32, timeout: Double) -> String? {
        var bytes: [UInt8] = []
        let deadline = Monotonic.seconds() + timeout
        while true {
            let remaining = deadline - Monotonic.seconds()
            guard remaining > 0 else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            var byte: UInt8 = 0
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
