import UnderstudyCore

/// The server's listening ports: the main one, the HTTPS listener and its certificates, and the
/// ports of sessions (plain and HTTPS), with the registry whose sessions they serve. Stored inline
/// in ``HTTPServer``; opening ports is in `HTTPServer+Sessions.swift`, `+TLS` and `+FreshPorts`.
struct ServerListeners {
    /// The main port (plain HTTP, the server's own responder); nil once closed.
    var mainPort: ListeningPort?
    /// The ports of live sessions, each closed before the loop is freed.
    var sessionPorts: [ObjectIdentifier: SessionPort] = [:]
    /// Ports sessions closed lately, which new sessions are not given (see ``RecentPorts``).
    var recentPorts = RecentPorts()
    /// The registry whose sessions this server hosts, and the timer that reclaims idle ones.
    /// Held strongly: a weak reference would give the registry a side table, which makes every
    /// retain of it slow, and the responder retains it on every request. It makes no cycle
    /// (the registry refers to the server only through ``HTTPServer/reference``, weakly), and it
    /// cannot outlive its main responder's use: the server holds that responder too.
    var sessionRegistry: (any HostedSessions)?
    var sessionSweep: EventHandle?
    /// The HTTPS listener and its certificates, when open, and every HTTPS port (that one and
    /// sessions'), each closed before the loop is freed.
    var httpsListener: TLSPort?
    var tlsContext: TLSContext?
    var tlsPorts: [ObjectIdentifier: TLSPort] = [:]
    /// Re-enables the listeners after one paused for lack of descriptors.
    var acceptResume: EventHandle?

    /// Every listener stops accepting (the server drains); open connections carry on.
    func stopAccepting() {
        mainPort?.stopAccepting()
        for port in sessionPorts.values { port.stopAccepting() }
        for port in tlsPorts.values { port.stopAccepting() }
    }

    /// Every listener accepts again after one paused for lack of descriptors.
    func resumeAccepting() {
        mainPort?.resumeAccepting()
        for port in sessionPorts.values { port.resumeAccepting() }
        for port in tlsPorts.values { port.resumeAccepting() }
    }
}

extension HTTPServer {
    /// Closes every port, sessions' first (each closes its own connections), then the main one.
    /// Each port's close removes it from the tables, so the tables are copied first.
    func closeListeners() {
        listeners.sessionRegistry?.closeAll()
        for port in Array(listeners.sessionPorts.values) { port.close() }
        for port in Array(listeners.tlsPorts.values) { port.close() }
        listeners.httpsListener = nil
        listeners.sessionSweep = nil
        listeners.mainPort?.close()
        listeners.mainPort = nil
        listeners.acceptResume = nil
    }
}
