#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

/// Sessions: each is a ``SessionPort`` (its own listening socket) on this server's
/// event loop, opened for the ``SessionRegistry`` of the main responder.
extension HTTPServer: SessionHosting {
    /// Hosts `registry`'s sessions on this loop: the registry opens ports through this server,
    /// and a timer reclaims sessions idle past the registry's timeout.
    public func hostSessions(_ registry: any HostedSessions) {
        registry.host = reference  // not `self`: see ServerReference
        listeners.sessionRegistry = registry
        guard let interval = registry.sweepIntervalSeconds else { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        listeners.sessionSweep = EventHandle(
            event_new(
                base, -1, Int16(EV_PERSIST),
                { _, _, context in
                    guard let context else { return }
                    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
                    guard !server.lifecycle.closed, !server.lifecycle.draining else { return }
                    server.listeners.sessionRegistry?.reclaimIdle()
                }, context))
        listeners.sessionSweep?.add(afterSeconds: interval)
    }

    public func openListener(for responder: any HTTPResponder) -> Result<any SessionListener, SessionHostingError> {
        guard !lifecycle.closed, !lifecycle.draining else {
            return .failure(SessionHostingError("the server is stopping"))
        }
        let socket: Int32, port: Int
        switch bindFreshPort() {
        case .success(let bound):
            (socket, port) = bound
        case .failure(let error):
            return .failure(SessionHostingError("\(error)"))
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let session = SessionPort(
            server: self, socket: socket, port: port, url: "http://\(host):\(port)",
            responder: responder, sslContext: nil)
        listeners.sessionPorts[ObjectIdentifier(session)] = session
        return .success(session)
    }
}
