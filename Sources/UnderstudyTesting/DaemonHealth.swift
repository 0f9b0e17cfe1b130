/// `GET /__admin/health`.
public struct DaemonHealth: Codable, Sendable, Equatable {
    /// `"ok"` while the daemon serves.
    public var status: String
    /// How many stubs are loaded.
    public var stubs: Int
    /// Journal entries in memory.
    public var requests: Int
    /// Requests received whose answer is still waiting out a delay, not yet journaled (nil from a
    /// daemon that predates the field).
    public var pending: Int?
    /// Pending `requests/wait` long polls (nil from a daemon that predates the field).
    public var waiting: Int?

    /// A health answer with these counts.
    public init(status: String, stubs: Int, requests: Int, pending: Int? = nil, waiting: Int? = nil) {
        self.status = status
        self.stubs = stubs
        self.requests = requests
        self.pending = pending
        self.waiting = waiting
    }
}
