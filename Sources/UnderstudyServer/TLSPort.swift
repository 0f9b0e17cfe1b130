import UnderstudyCore

/// An HTTPS listening port: a listener of its own on the server's loop whose connections get
/// OpenSSL bufferevents, and whose requests go to `responder` exactly as plain ones do (the same
/// parser, journal, delays and faults: only the bufferevent differs).
///
/// Only the loop thread touches it.
final class TLSPort: ListeningPort {
    /// Keeps the OpenSSL context alive.
    private let tls: TLSContext

    /// Binds a new HTTPS port on `server`'s loop presenting `mode`'s certificate.
    init(
        server: HTTPServer, port requested: Int, tls: TLSContext, mode: CertificateMode,
        responder: any HTTPResponder
    ) throws(ServerError) {
        let sslContext = try tls.context(for: mode)
        // A kernel-chosen port is one no session closed lately, as for plain session ports.
        let binding =
            requested == 0
            ? server.bindFreshPort().map(\.socket)
            : ListeningPort.bindSocket(host: server.configuration.host, port: requested)
        let socket: Int32
        switch binding {
        case .success(let bound): socket = bound
        case .failure(let error): throw error
        }
        let port = ListeningPort.localPort(of: socket) ?? requested
        let host =
            server.configuration.host.contains(":") ? "[\(server.configuration.host)]" : server.configuration.host
        self.tls = tls
        super.init(
            server: server, socket: socket, port: port, url: "https://\(host):\(port)", responder: responder,
            sslContext: sslContext)
        server.listeners.tlsPorts[ObjectIdentifier(self)] = self
    }

    override func forget(in server: HTTPServer, responder: (any HTTPResponder)?) {
        server.listeners.tlsPorts[ObjectIdentifier(self)] = nil
        // The main HTTPS port shares the server's own responder; a session's port is remembered.
        if let responder, responder !== server.responder { server.listeners.recentPorts.remember(port) }
    }
}
