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
        abstract: "Stop a daemon started with --pid-file: SIGTERM, then wait for it to exit."
    )

    @Option(name: .long, help: "The pid file the daemon wrote.")
    var pidFile: String

    @Option(name: .long, help: "Seconds to wait for the process to exit.")
    var timeout: Double = 10

    func run() throws {
        guard let text = StateFiles.read(pidFile) else {
            Console.error("understudy stop: cannot read \(pidFile); is the daemon running?")
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
        let deadline = Monotonic.seconds() + timeout
        while Monotonic.seconds() < deadline {
            if kill(pid, 0) != 0 && errno == ESRCH { return }
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)  // polling a foreign pid: no other wait exists
            nanosleep(&pause, nil)
        }
        Console.error("understudy stop: process \(pid) did not exit within \(timeout)s")
        throw ExitCode(1)
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
