import CLibevent
import UnderstudyCore

/// New session ports that no recently closed session used (see ``RecentPorts``).
extension HTTPServer {
    /// Binds `http` to a kernel-chosen port on the configured host, binding again while the
    /// kernel offers a port in ``recentPorts``. The refused sockets stay bound until a fresh port
    /// is found, so the kernel cannot offer them twice, and are closed before returning. After
    /// ``RecentPorts/maxBindAttempts`` the last port is taken anyway: a session is better than
    /// none.
    func bindFreshPort(_ http: OpaquePointer) -> Result<(bound: OpaquePointer, port: Int), ServerError> {
        var refused: [OpaquePointer] = []
        defer { for socket in refused { evhttp_del_accept_socket(http, socket) } }
        for attempt in 1...RecentPorts.maxBindAttempts {
            switch Self.bind(http, host: configuration.host, port: 0) {
            case .failure(let error):
                return .failure(error)
            case .success(let bound):
                let port = Self.localPort(of: evhttp_bound_socket_get_fd(bound)) ?? 0
                if !recentPorts.contains(port) || attempt == RecentPorts.maxBindAttempts {
                    return .success((bound, port))
                }
                refused.append(bound)
            }
        }
        preconditionFailure("the last attempt returns")
    }
}
