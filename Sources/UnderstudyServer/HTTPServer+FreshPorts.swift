#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyCore

/// New session ports that no recently closed session used (see ``RecentPorts``).
extension HTTPServer {
    /// A listening socket on a kernel-chosen port of the configured host, binding again while the
    /// kernel offers a port in ``ServerListeners/recentPorts``. The refused sockets stay bound until a fresh port
    /// is found, so the kernel cannot offer them twice, and are closed before returning. After
    /// ``RecentPorts/maxBindAttempts`` the last port is taken anyway: a session is better than
    /// none.
    func bindFreshPort() -> Result<(socket: Int32, port: Int), ServerError> {
        var refused: [Int32] = []
        defer { for socket in refused { _ = Glibc.close(socket) } }
        for attempt in 1...RecentPorts.maxBindAttempts {
            switch ListeningPort.bindSocket(host: configuration.host, port: 0) {
            case .failure(let error):
                return .failure(error)
            case .success(let socket):
                let port = ListeningPort.localPort(of: socket) ?? 0
                if !listeners.recentPorts.contains(port) || attempt == RecentPorts.maxBindAttempts {
                    return .success((socket, port))
                }
                refused.append(socket)
            }
        }
        preconditionFailure("the last attempt returns")
    }
}
