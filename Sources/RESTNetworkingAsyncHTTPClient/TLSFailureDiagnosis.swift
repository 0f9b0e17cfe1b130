#if AsyncHTTPClient  // this module is empty without the AsyncHTTPClient trait (Package.swift)
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import RESTNetworking
import X509

/// Why BoringSSL refused a server's certificate chain, which NIOSSL reports only as
/// `CERTIFICATE_VERIFY_FAILED` (and AsyncHTTPClient offers no verification callback).
///
/// After such a refusal the transport opens one more connection to the same server whose only
/// job is to read the chain the server presents (its verification callback records the chain and
/// fails the handshake; no request is sent). The chain is then judged against the same trust
/// roots, in the order OpenSSL checks: does it chain to a trusted root (else ``untrusted``), is
/// each certificate within its validity (else ``expired`` / ``notYetValid``), does the leaf name
/// the host (else ``hostnameMismatch``). A chain that passes all of these, or a server that
/// cannot be reached again, is `.handshake` with BoringSSL's own message.
public enum TLSFailureDiagnosis {
    /// The reason `url`'s server's chain was refused under `configuration`'s trust roots;
    /// `error` is the refusal (its text is the `.handshake` reason when nothing more is found).
    public static func diagnose(
        url: URL, configuration: TLSConfiguration, group: any EventLoopGroup,
        error: any Error, now: Date = Date()
    ) async -> HTTPTransportError.TLSFailure {
        let fallback = HTTPTransportError.TLSFailure.handshake("\(error)")
        guard let host = url.host(percentEncoded: false), let port = url.port ?? (url.scheme == "https" ? 443 : nil)
        else { return fallback }
        do {
            let presented = try await presentedChain(host: host, port: port, configuration: configuration, group: group)
            let chain = try presented.map { try Certificate(derEncoded: try $0.toDERBytes()) }
            let roots = try trustRoots(of: configuration)
            return classify(chain: chain, roots: roots, host: host, now: now) ?? fallback
        } catch {
            return fallback
        }
    }

    /// The verdict on `chain` (leaf first) against `roots` for `host` at `now`; nil when it
    /// passes every check made here.
    public static func classify(
        chain: [Certificate], roots: [Certificate], host: String,
        now: Date
    ) -> HTTPTransportError.TLSFailure? {
        guard let leaf = chain.first else { return .handshake("the server presented no certificate") }
        guard let path = pathToTrustedRoot(from: leaf, intermediates: Array(chain.dropFirst()), roots: roots) else {
            return .untrusted
        }
        if path.contains(where: { now > $0.notValidAfter }) { return .expired }
        if path.contains(where: { now < $0.notValidBefore }) { return .notYetValid }
        if !names(leaf, host: host) { return .hostnameMismatch }
        return nil
    }

    /// The certificates from `leaf` up to (and with) a trusted root, each signed by the next;
    /// nil when there is no such path. Dates are not looked at here (they are judged apart).
    static func pathToTrustedRoot(
        from leaf: Certificate, intermediates: [Certificate],
        roots: [Certificate]
    ) -> [Certificate]? {
        var path = [leaf]
        var current = leaf
        // A path is at most as long as the chain the server sent, plus the root.
        for _ in 0...intermediates.count {
            if roots.contains(current) { return path }
            if let root = roots.first(where: { signs($0, current) }) { return path + [root] }
            guard let next = intermediates.first(where: { signs($0, current) && !path.contains($0) }) else {
                return nil
            }
            path.append(next)
            current = next
        }
        return nil
    }

    private static func signs(_ issuer: Certificate, _ certificate: Certificate) -> Bool {
        issuer.subject == certificate.issuer
            && issuer.publicKey.isValidSignature(certificate.signature, for: certificate)
    }

    /// Whether the leaf's subject alternative names cover `host` (an IP address or a DNS name,
    /// with a leading `*.` wildcard for one label).
    static func names(_ leaf: Certificate, host: String) -> Bool {
        guard let names = try? leaf.extensions.subjectAlternativeNames else { return false }
        let address = ipAddressBytes(host)
        let lowered = host.lowercased()
        return names.contains { name in
            switch name {
            case let .ipAddress(bytes): return address.map { Array(bytes.bytes) == $0 } ?? false
            case let .dnsName(dnsName):
                let pattern = dnsName.lowercased()
                if pattern == lowered { return true }
                guard pattern.hasPrefix("*."), let dot = lowered.firstIndex(of: ".") else { return false }
                return lowered[dot...] == pattern.dropFirst()
            default: return false
            }
        }
    }

    /// The trust roots `configuration` verifies against, as certificates.
    static func trustRoots(of configuration: TLSConfiguration) throws -> [Certificate] {
        var nio: [NIOSSLCertificate] = []
        switch configuration.trustRoots ?? .default {
        case let .certificates(certificates): nio += certificates
        case let .file(path): nio += try NIOSSLCertificate.fromPEMFile(path)
        case .default: nio += systemRoots()
        }
        for additional in configuration.additionalTrustRoots {
            switch additional {
            case let .certificates(certificates): nio += certificates
            case let .file(path): nio += try NIOSSLCertificate.fromPEMFile(path)
            }
        }
        return nio.compactMap { try? Certificate(derEncoded: try $0.toDERBytes()) }
    }

    /// The machine's trust roots, where the common Linux distributions keep their bundle.
    private static func systemRoots() -> [NIOSSLCertificate] {
        for path in ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"]
        where FileManager.default.fileExists(atPath: path) {
            if let roots = try? NIOSSLCertificate.fromPEMFile(path) { return roots }
        }
        return []
    }

    /// Connects to `host:port` and returns the chain its server presents, without trusting it:
    /// the verification callback records the chain and refuses it, which ends the handshake.
    static func presentedChain(
        host: String, port: Int, configuration: TLSConfiguration,
        group: any EventLoopGroup
    ) async throws -> [NIOSSLCertificate] {
        var probe = configuration
        probe.certificateVerification = .noHostnameVerification
        let context = try NIOSSLContext(configuration: probe)
        let serverName = ipAddressBytes(host) == nil ? host : nil  // SNI carries no IP address
        let recorded = NIOLockedValueBox<[NIOSSLCertificate]?>(nil)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try NIOSSLClientHandler(
                        context: context, serverHostname: serverName,
                        customVerificationCallback: { chain, verdict in
                            recorded.withLockedValue { $0 = chain }
                            verdict.succeed(.failed)
                        })
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        let channel = try await bootstrap.connect(host: host, port: port).get()
        // The refused handshake closes the channel; a server that never answers is cut off.
        let timeout = channel.eventLoop.scheduleTask(in: .seconds(10)) { channel.close(promise: nil) }
        try? await channel.closeFuture.get()
        timeout.cancel()
        guard let chain = recorded.withLockedValue({ $0 }) else { throw ChannelError.eof }
        return chain
    }
}

/// The bytes of an IPv4 or IPv6 address written as text (nil for a name), as a certificate's
/// `iPAddress` names hold them.
private func ipAddressBytes(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
    var v6 = in6_addr()
    let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
    if inet_pton(AF_INET6, bare, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
    return nil
}
#endif
