#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser

/// `understudy stop`: asks a daemon to stop (SIGTERM) and waits for it to exit.
struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop",
        abstract: "Stop a daemon started with --pid-file: SIGTERM, then wait for it to exit.",
        discussion: """
            Exits 0 once the daemon is gone: it no longer exists, it is a zombie (exited, not yet \
            reaped by its parent), or it removed its pid file on the way out (a missing pid file \
            means it is not running). Exits 1 if the pid file cannot be read or holds no process \
            id, or if the daemon outlives --timeout.
            """
    )

    @Option(name: .long, help: "The pid file the daemon wrote.")
    var pidFile: String

    @Option(name: .long, help: "Seconds to wait for the process to exit.")
    var timeout: Double = 10

    func validate() throws {
        guard timeout >= 0, timeout.isFinite else {
            throw ValidationError("--timeout must be a non-negative number of seconds")
        }
    }

    func run() throws {
        guard let text = StateFiles.read(pidFile) else {
            if errno == ENOENT {
                // The daemon removes its pid file as it exits: no file, no daemon.
                Console.error("understudy stop: no pid file at \(pidFile); the daemon is not running")
                return
            }
            Console.error("understudy stop: cannot read \(pidFile): \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        guard let pid = pid_t(String(text.filter { !$0.isWhitespace })), pid > 0 else {
            Console.error("understudy stop: \(pidFile) does not hold a process id")
            throw ExitCode(1)
        }
        guard kill(pid, SIGTERM) == 0 else {
            if errno == ESRCH {
                Console.error("understudy stop: process \(pid) is not running; removing \(pidFile)")
                StateFiles.remove(pidFile)
                return
            }
            Console.error("understudy stop: cannot signal \(pid): \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        // Polling a process that is not our child: no other wait exists. Short pauses at first,
        // since an idle daemon is gone within milliseconds, growing to 10 ms.
        let deadline = Monotonic.seconds() + timeout
        var pause = 0.0005
        while true {
            if ProcessState.hasExited(pid, pidFile: pidFile, pidText: text) { return }
            guard Monotonic.seconds() < deadline else { break }
            var interval = timespec(tv_sec: 0, tv_nsec: Int(pause * 1e9))
            nanosleep(&interval, nil)
            pause = min(pause * 2, 0.01)
        }
        Console.error("understudy stop: process \(pid) did not exit within \(timeout)s")
        throw ExitCode(1)
    }
}

/// Whether a daemon we signalled is gone.
enum ProcessState {
    /// True once `pid` no longer runs: it does not exist, or it is a zombie (it has exited and
    /// waits for a parent that may never reap it), or it removed (or replaced) its pid file,
    /// the last thing a daemon does before it exits.
    static func hasExited(_ pid: pid_t, pidFile: String, pidText: String) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return true }
        if isZombie(pid) { return true }
        return StateFiles.read(pidFile) != pidText
    }

    /// Linux: the state letter in `/proc/PID/stat` (after the parenthesised command name, which
    /// may itself hold spaces and parentheses) is `Z` for a zombie, `X` for a dead process.
    /// Elsewhere there is no cheap way to tell, and the pid file decides.
    static func isZombie(_ pid: pid_t) -> Bool {
        #if os(Linux)
        guard let stat = StateFiles.read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state == "Z" || state == "X"
        #else
        return false
        #endif
    }
}

/// Monotonic seconds, for deadlines.
enum Monotonic {
    static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
