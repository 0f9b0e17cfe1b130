import CLibeventTLS

/// The certificates and OpenSSL contexts behind HTTPS listeners: a CA generated in memory at
/// start-up (or the user's own certificate and key), and one server context per
/// ``CertificateMode``, made the first time a listener asks for it. Each context and identity is
/// owned here and freed once, in `deinit`.
///
/// Used on the event-loop thread only (created before the loop runs).
public final class TLSContext {
    /// The generated CA's certificate (PEM), which clients must trust; `nil` with the user's own pair.
    public let certificateAuthorityPEM: String?
    /// The host names and addresses every generated certificate (but `wrong-host`'s) is issued for.
    public static let hosts = ["localhost", "127.0.0.1", "::1"]
    /// The only name a `wrong-host` certificate is issued for (`.invalid` never resolves).
    public static let wrongHost = "wrong-host.invalid"

    /// OpenSSL's entry points (``OpenSSLLibrary``), opened by the first context.
    private let api: UnsafePointer<understudy_openssl>
    private let authority: TLSIdentity?
    /// The CA nobody is given, for `untrusted`; made on first use.
    private var strangerAuthority: TLSIdentity?
    private var contexts: [CertificateMode: OpaquePointer] = [:]
    private var leaves: [CertificateMode: TLSIdentity] = [:]

    /// Generates a CA, or loads the user's pair (the chain's first certificate must match the key).
    /// Opens OpenSSL first (``OpenSSLLibrary``); throws why when it cannot.
    public init(settings: TLSSettings) throws(ServerError) {
        let api = try OpenSSLLibrary.api()
        self.api = api
        if let certificateFile = settings.certificateFile, let keyFile = settings.keyFile {
            var error = [CChar](repeating: 0, count: 2048)
            let context = error.withUnsafeMutableBufferPointer {
                understudy_tls_context_from_files(api, certificateFile, keyFile, $0.baseAddress!, $0.count)
            }
            guard let context else { throw .setupFailed(TLSIdentity.message(error)) }
            contexts[.valid] = context
            authority = nil
            certificateAuthorityPEM = nil
        } else {
            let authority = try TLSIdentity.authority(named: "Understudy Test CA", api: api)
            self.authority = authority
            certificateAuthorityPEM = authority.certificatePEM
        }
    }

    deinit {
        for context in contexts.values { understudy_tls_context_free(api, context) }
    }

    /// The OpenSSL server context presenting `mode`'s certificate.
    func context(for mode: CertificateMode) throws(ServerError) -> OpaquePointer {
        if let context = contexts[mode] { return context }
        guard let authority else {
            throw .setupFailed(
                "TLS mode \(mode.rawValue) needs the generated CA; it cannot be combined with --tls-cert")
        }
        let leaf = try leaf(for: mode, authority: authority)
        var error = [CChar](repeating: 0, count: 512)
        let context = error.withUnsafeMutableBufferPointer {
            understudy_tls_context_new(api, leaf.handle, $0.baseAddress!, $0.count)
        }
        guard let context else { throw .setupFailed(TLSIdentity.message(error)) }
        leaves[mode] = leaf
        contexts[mode] = context
        return context
    }

    /// The certificate and key `mode` presents, as PEM (for benchmarks that serve the same
    /// certificate from another server); `nil` with the user's own pair.
    public func serverPEM(for mode: CertificateMode) throws(ServerError) -> (certificate: String, key: String)? {
        guard authority != nil else { return nil }
        _ = try context(for: mode)
        guard let leaf = leaves[mode] else { return nil }
        return (leaf.certificatePEM, leaf.keyPEM)
    }

    private func leaf(for mode: CertificateMode, authority: TLSIdentity) throws(ServerError) -> TLSIdentity {
        let day = 86_400
        switch mode {
        case .valid:
            // 397 days: Apple refuses server certificates valid for longer than 398.
            return try TLSIdentity.leaf(issuedBy: authority, hosts: Self.hosts, notBefore: -3_600, notAfter: 397 * day)
        case .expired:
            return try TLSIdentity.leaf(issuedBy: authority, hosts: Self.hosts, notBefore: -30 * day, notAfter: -day)
        case .notYetValid:
            return try TLSIdentity.leaf(issuedBy: authority, hosts: Self.hosts, notBefore: day, notAfter: 30 * day)
        case .wrongHost:
            return try TLSIdentity.leaf(
                issuedBy: authority, hosts: [Self.wrongHost], notBefore: -3_600, notAfter: 397 * day)
        case .untrusted:
            let stranger: TLSIdentity
            if let existing = strangerAuthority {
                stranger = existing
            } else {
                stranger = try TLSIdentity.authority(named: "Understudy Untrusted CA", api: api)
                strangerAuthority = stranger
            }
            return try TLSIdentity.leaf(issuedBy: stranger, hosts: Self.hosts, notBefore: -3_600, notAfter: 397 * day)
        }
    }
}
