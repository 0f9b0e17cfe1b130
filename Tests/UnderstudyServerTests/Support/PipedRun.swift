import Foundation

/// A command run the way a shell's `$(...)` or Python's `capture_output=True` runs it: stdout and
/// stderr are pipes, and the run is over only once the process has exited *and* both pipes are
/// at end of file, that is once every process holding them (a daemon it left behind, say) has
/// let go.
struct PipedRun {
    /// The exit status, or nil when the process was killed at the deadline.
    var exitCode: Int32?
    var stdout: String
    var stderr: String
    /// Whether the run ended (exit and both EOFs) before the deadline.
    var finished: Bool
    /// Seconds from start to the end of the run (or the deadline).
    var seconds: Double

    /// Runs `executable ARGUMENTS` with stdin at /dev/null; after `timeout` seconds the process is
    /// killed and the run reported unfinished (pipes still held elsewhere are simply closed).
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval) throws -> PipedRun {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in [outPipe[0], outPipe[1], errPipe[0], errPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = Date()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(outPipe[1])
        close(errPipe[1])
        defer {
            close(outPipe[0])
            close(errPipe[0])
        }
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }

        var out: [UInt8] = [], err: [UInt8] = []
        var outOpen = true, errOpen = true
        var status: Int32 = 0
        var exited = false
        let deadline = start.addingTimeInterval(timeout)
        while (outOpen || errOpen || !exited) && Date() < deadline {
            if !exited && waitpid(pid, &status, WNOHANG) == pid { exited = true }
            var pollers = [
                pollfd(fd: outOpen ? outPipe[0] : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errOpen ? errPipe[0] : -1, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&pollers, 2, 10) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            if outOpen && pollers[0].revents != 0 {
                let count = read(outPipe[0], &chunk, chunk.count)
                if count > 0 { out += chunk[..<count] } else { outOpen = false }
            }
            if errOpen && pollers[1].revents != 0 {
                let count = read(errPipe[0], &chunk, chunk.count)
                if count > 0 { err += chunk[..<count] } else { errOpen = false }
            }
        }
        let finished = exited && !outOpen && !errOpen
        if !exited {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        let code: Int32? = exited && (status & 0x7f) == 0 ? (status >> 8) & 0xff : nil
        return PipedRun(
            exitCode: code, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
            finished: finished, seconds: Date().timeIntervalSince(start))
    }
}
