/// Why the transport could not start.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libevent could not create its event loop or HTTP server object.
    case setupFailed(String)
    /// The address could not be bound (port in use, address not on this machine...).
    case bindFailed(host: String, port: Int, errno: Int32, message: String)

    public var description: String {
        switch self {
        case .setupFailed(let what):
            return "could not set up the event loop: \(what)"
        case .bindFailed(let host, let port, _, let message):
            return "cannot listen on \(host):\(port): \(message)"
        }
    }
}
