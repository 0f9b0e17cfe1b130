#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

/// An HTTPS listening port: an evhttp of its own on the server's loop whose connections get TLS
/// bufferevents, and whose requests go to `responder` exactly as plain ones do (the same
/// `accept`, journal, delays and faults). Owns its evhttp and frees it once, in ``close()``.
///
/// Only the loop thread touches it.
final class TLSPort: ListeningPort {
    /// The OpenSSL context; kept alive by `tls`.
    let sslContext: OpaquePointer
    private let tls: TLSContext

    /// Binds a new HTTPS port on `server`'s loop presenting `mode`'s certificate.
    init(server: HTTPServer, port requested: Int, tls: TLSContext, mode: CertificateMode,
         responder: any HTTPResponder) throws(ServerError) {
        let sslContext = try tls.context(for: mode)
        guard let http = HTTPServer.makeHTTP(base: server.base, configuration: server.configuration) else {
            throw .setupFailed("evhttp_new failed")
        }
        let bound: OpaquePointer
        // A kernel-chosen port is one no session closed lately, as for plain session ports.
        let binding = requested == 0 ? server.bindFreshPort(http).map(\.bound)
            : HTTPServer.bind(http, host: server.configuration.host, port: requested)
        switch binding {
        case .success(let socket): bound = socket
        case .failure(let error):
            evhttp_free(http)
            throw error
        }
        let fd = evhttp_bound_socket_get_fd(bound)
        // OpenSSL's bufferevent writes each chunk of a response (head, body) as its own TLS record
        // and send(); with Nagle on, the second waits for the client's delayed ACK (40 ms), capping a
        // keep-alive connection at ~25 requests/s. Accepted sockets inherit TCP_NODELAY on Linux.
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let port = HTTPServer.localPort(of: fd) ?? requested
        let host = server.configuration.host.contains(":") ? "[\(server.configuration.host)]" : server.configuration.host
        self.tls = tls
        self.sslContext = sslContext
        super.init(server: server, http: http, bound: bound, port: port, url: "https://\(host):\(port)", responder: responder)

        let context = Unmanaged.passUnretained(self).toOpaque()
        evhttp_set_gencb(http, { request, context in
            guard let request, let context else { return }
            let port = Unmanaged<TLSPort>.fromOpaque(context).takeUnretainedValue()
            guard let server = port.server, let responder = port.responder else { return }
            server.accept(request, responder: responder)
        }, context)
        evhttp_set_bevcb(http, { base, context in
            guard let context else { return nil }
            let port = Unmanaged<TLSPort>.fromOpaque(context).takeUnretainedValue()
            guard let server = port.server, let responder = port.responder else { return nil }
            return server.makeBufferevent(base: base, responder: responder, tls: port.sslContext)
        }, context)
        if let listener { server.watchAcceptErrors(of: listener) }
        server.tlsPorts[ObjectIdentifier(self)] = self
    }

    override func forget(in server: HTTPServer, responder: (any HTTPResponder)?) {
        server.tlsPorts[ObjectIdentifier(self)] = nil
        // The main HTTPS port shares the server's own responder: its connections stay the server's.
        if let responder, responder !== server.responder {
            server.forgetConnections(answeredBy: responder)
            server.recentPorts.remember(port)
        }
    }
}
