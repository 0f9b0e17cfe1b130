import CLibevent
import UnderstudyCore

/// HTTPS: a second listener on the same loop whose connections speak TLS (see ``TLSPort``).
/// Requests reach the same responder through the same code as plain ones; only the bufferevent
/// differs, so keep-alive, pipelining, delays, faults and the journal behave alike.
extension HTTPServer {
    /// Opens the HTTPS listener beside the plain one, presenting `settings.mode`'s certificate
    /// from `tls`. Call before ``run()``.
    public func openHTTPS(_ settings: TLSSettings, tls: TLSContext) throws(ServerError) {
        guard listeners.httpsListener == nil else { throw .setupFailed("the HTTPS listener is already open") }
        listeners.httpsListener = try TLSPort(
            server: self, port: settings.port, tls: tls, mode: settings.mode, responder: responder)
        // `{{server.url}}` over TLS
        if let url = listeners.httpsListener?.url { responder.transportHooks.served?(url, true) }
        listeners.tlsContext = tls
    }

    /// Whether sessions can ask for an HTTPS port (`{"tls": MODE}`).
    public var servesHTTPS: Bool { listeners.tlsContext != nil && !lifecycle.closed && !lifecycle.draining }

    /// A session's HTTPS port on a free port, presenting `mode`'s certificate from the daemon's CA.
    public func openSecureListener(for responder: any HTTPResponder, mode: String) -> Result<
        any SessionListener, SessionHostingError
    > {
        guard let tlsContext = listeners.tlsContext, !lifecycle.closed, !lifecycle.draining else {
            return .failure(SessionHostingError("the server serves no HTTPS or is stopping"))
        }
        guard let certificateMode = CertificateMode(rawValue: mode) else {
            return .failure(SessionHostingError("no certificate mode `\(mode)`"))
        }
        do {
            return .success(
                try TLSPort(server: self, port: 0, tls: tlsContext, mode: certificateMode, responder: responder))
        } catch {
            return .failure(SessionHostingError("\(error)"))
        }
    }

    /// The HTTPS listener's bound port, when it is open.
    public var httpsPort: Int? { listeners.httpsListener?.port }

    /// `https://127.0.0.1:PORT`, when the HTTPS listener is open.
    public var httpsURL: String? { listeners.httpsListener?.url }

    /// The HTTPS listener, when open.
    var httpsListener: TLSPort? { listeners.httpsListener }
}
