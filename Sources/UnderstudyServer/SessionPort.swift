import CLibevent
import UnderstudyCore

/// One session's port: an evhttp of its own on the server's event loop, bound to a new loopback
/// port, whose requests go to the session's responder. It owns its evhttp and frees it once, in
/// ``close()`` (or `deinit`), which closes the listening socket and every connection on it.
///
/// Only the loop thread touches it.
final class SessionPort: ListeningPort {
    override func forget(in server: HTTPServer, responder: (any HTTPResponder)?) {
        server.sessionPorts[ObjectIdentifier(self)] = nil
        server.recentPorts.remember(port)
        if let responder { server.forgetConnections(answeredBy: responder) }
    }
}
