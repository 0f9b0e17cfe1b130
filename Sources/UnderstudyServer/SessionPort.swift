import UnderstudyCore

/// One session's port: a listener of its own on the server's event loop, bound to a new loopback
/// port, whose requests go to the session's responder. Closing it closes every connection on it.
///
/// Only the loop thread touches it.
final class SessionPort: ListeningPort {
    override func forget(in server: HTTPServer, responder: (any HTTPResponder)?) {
        server.listeners.sessionPorts[ObjectIdentifier(self)] = nil
        server.listeners.recentPorts.remember(port)
    }
}
