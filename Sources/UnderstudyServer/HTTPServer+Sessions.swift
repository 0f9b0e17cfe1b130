#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

/// Sessions: each is a ``SessionPort`` (its own evhttp and listening socket) on this server's
/// event loop, opened for the ``SessionRegistry`` of the main responder.
extension HTTPServer: SessionHosting {
    /// Hosts `registry`'s sessions on this loop: the registry opens ports through this server,
    /// and a timer reclaims sessions idle past the registry's timeout.
    public func hostSessions(_ registry: SessionRegistry) {
        registry.host = self
        sessionRegistry = registry
        guard let interval = registry.limits.sweepIntervalSeconds else { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sessionSweep = EventHandle(event_new(base, -1, Int16(EV_PERSIST), { _, _, context in
            guard let context else { return }
            let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
            guard !server.closed, !server.draining else { return }
            server.sessionRegistry?.reclaimIdle()
        }, context))
        sessionSweep?.add(afterSeconds: interval)
    }

    public func openListener(for responder: any HTTPResponder) -> Result<any SessionListener, SessionHostingError> {
        guard !closed, !draining else { return .failure(SessionHostingError("the server is stopping")) }
        guard let http = Self.makeHTTP(base: base, configuration: configuration) else {
            return .failure(SessionHostingError("evhttp_new failed"))
        }
        let bound: OpaquePointer
        let port: Int
        switch bindFreshPort(http) {
        case .success(let socket):
            (bound, port) = socket
        case .failure(let error):
            evhttp_free(http)
            return .failure(SessionHostingError("\(error)"))
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let session = SessionPort(server: self, http: http, bound: bound, port: port, url: "http://\(host):\(port)",
                                  responder: responder)
        let context = Unmanaged.passUnretained(session).toOpaque()
        evhttp_set_gencb(http, { request, context in
            guard let request, let context else { return }
            let port = Unmanaged<SessionPort>.fromOpaque(context).takeUnretainedValue()
            guard let server = port.server, let responder = port.responder else { return }
            server.accept(request, responder: responder)
        }, context)
        evhttp_set_bevcb(http, { base, context in
            guard let context else { return nil }
            let port = Unmanaged<SessionPort>.fromOpaque(context).takeUnretainedValue()
            guard let server = port.server, let responder = port.responder else { return nil }
            return server.makeBufferevent(base: base, responder: responder)
        }, context)
        if let listener = session.listener { watchAcceptErrors(of: listener) }
        sessionPorts[ObjectIdentifier(session)] = session
        return .success(session)
    }

    /// Drops table entries for connections of a closed session port that never sent a byte
    /// (evhttp freed them without a close callback).
    func forgetConnections(answeredBy responder: any HTTPResponder) {
        for (key, connection) in connections where connection.responder === responder {
            connection.current?.deferral?.cancel()
            connection.current = nil
            connection.server = nil
            if readingConnection === connection { readingConnection = nil }
            connections.removeValue(forKey: key)
        }
    }
}
