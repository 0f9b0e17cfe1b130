/// The last ``capacity`` ports that sessions closed, so a new session is not handed one of them.
///
/// The kernel picks a free port at random for `bind(port: 0)`, and a port is free again the moment
/// its listener closes: in 200 create/delete cycles a few ports came back, so a stale session URL
/// kept by one test could reach a newer session of another. Remembering recently closed ports and
/// binding again when the kernel offers one of them closes that window for the last `capacity`
/// sessions; older ports may come back at the kernel's random chance.
///
/// Only the loop thread touches it.
struct RecentPorts {
    /// How many closed ports are remembered. About a quarter of Linux's default ephemeral range
    /// (32768–60999, of which `bind(0)` prefers the odd half): a fresh bind lands on a remembered
    /// port about one time in four at worst, and ``maxBindAttempts`` retries make running out
    /// practically impossible.
    static let capacity = 4096
    /// Binds tried for one new port before taking whatever the kernel gave.
    static let maxBindAttempts = 32

    private var ring: [Int] = []
    private var next = 0
    private var members: Set<Int> = []

    /// Notes a port that was just closed, forgetting the oldest past ``capacity``.
    mutating func remember(_ port: Int) {
        guard port > 0, !members.contains(port) else { return }
        if ring.count < Self.capacity {
            ring.append(port)
        } else {
            members.remove(ring[next])
            ring[next] = port
            next = (next + 1) % Self.capacity
        }
        members.insert(port)
    }

    /// Whether `port` was closed by one of the last ``capacity`` sessions.
    func contains(_ port: Int) -> Bool {
        members.contains(port)
    }
}
