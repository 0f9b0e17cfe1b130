/// `GET /__admin/health`.
public struct DaemonHealth: Codable, Sendable, Equatable {
    public var status: String
    public var stubs: Int
    public var requests: Int
    /// Pending `requests/wait` long polls (daemons that report it).
    public var waiting: Int?

    public init(status: String, stubs: Int, requests: Int, waiting: Int? = nil) {
        self.status = status
        self.stubs = stubs
        self.requests = requests
        self.waiting = waiting
    }
}
