#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Raises the open-file limit (RLIMIT_NOFILE) at start-up: every connection holds a descriptor,
/// and the usual default soft limit (often 1024) is below what a load test opens.
enum DescriptorLimit {
    /// Descriptors a server needs besides its connections: stdio, the listener, the event loop,
    /// the journal file, stub files read during a reload.
    static let reserve = 64

    /// What start-up achieved.
    struct Outcome {
        /// The soft limit now in force.
        var limit: Int
        /// The hard limit, the most an unprivileged process can raise the soft one to.
        var hardLimit: Int
        /// Descriptors wanted for the configured connections, when some were configured.
        var needed: Int?
        /// Why the limit could not be changed, if `setrlimit` failed.
        var failure: String?

        /// Whether the configured connections fit (always true when none were configured).
        var coversNeed: Bool { needed.map { limit >= $0 } ?? true }

        /// How many simultaneous connections the limit leaves room for.
        var connectionCapacity: Int { max(0, limit - DescriptorLimit.reserve) }
    }

    /// Raises the soft limit: to `connections + reserve` when `connections` is given (never
    /// lowering it), else as high as the hard limit allows.
    static func raise(toServe connections: Int?) -> Outcome {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else {
            return Outcome(
                limit: 0, hardLimit: 0, needed: connections.map { $0 + reserve },
                failure: "getrlimit: \(String(cString: strerror(errno)))")
        }
        let hard = clamp(limits.rlim_max)
        let soft = clamp(limits.rlim_cur)
        let needed = connections.map { $0 + reserve }
        let target = min(hard, needed.map { max($0, soft) } ?? hard)
        var outcome = Outcome(limit: soft, hardLimit: hard, needed: needed)
        guard target > soft else { return outcome }
        limits.rlim_cur = rlim_t(target)
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 {
            outcome.limit = target
        } else {
            outcome.failure = "setrlimit: \(String(cString: strerror(errno)))"
        }
        return outcome
    }

    /// The message for a limit that does not cover `--max-connections`, or nil when it does.
    static func shortfallMessage(_ outcome: Outcome, connections: Int) -> String? {
        guard !outcome.coversNeed, let needed = outcome.needed else { return nil }
        let reason = outcome.failure.map { " (\($0))" } ?? ""
        return
            "understudy: warning: --max-connections \(connections) needs about \(needed) open files, but the limit is "
            + "\(outcome.limit) (hard limit \(outcome.hardLimit))\(reason); connections beyond about "
            + "\(outcome.connectionCapacity) will be refused. Raise the hard limit (ulimit -Hn, LimitNOFILE=, "
            + "docker --ulimit nofile=) or lower --max-connections."
    }

    /// Infinite or huge limits as an `Int` no larger than the kernel accepts for a process.
    private static func clamp(_ value: rlim_t) -> Int {
        let ceiling: rlim_t = 1 << 20  // Linux's default fs.nr_open; higher values fail with EPERM
        return Int(min(value, ceiling))
    }
}
