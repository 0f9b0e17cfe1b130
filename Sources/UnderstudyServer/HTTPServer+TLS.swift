import UnderstudyCore

/// HTTPS: a second listener on the same loop whose connections speak TLS (see ``TLSPort``).
/// Requests reach the same responder through the same code as plain ones; only the bufferevent
/// differs, so keep-alive, pipelining, delays, faults and the journal behave alike.
extension HTTPServer {
    /// Opens the HTTPS listener beside the plain one, presenting `settings.mode`'s certificate
    /// from `tls`. Call before ``run()``.
    public func openHTTPS(_ settings: TLSSettings, tls: TLSContext) throws(ServerError) {
        guard httpsListener == nil else { throw .setupFailed("the HTTPS listener is already open") }
        httpsListener = try TLSPort(server: self, port: settings.port, tls: tls, mode: settings.mode, responder: responder)
        tlsContext = tls
    }

    /// The HTTPS listener's bound port, when it is open.
    public var httpsPort: Int? { httpsListener?.port }

    /// `https://127.0.0.1:PORT`, when the HTTPS listener is open.
    public var httpsURL: String? { httpsListener?.url }
}
