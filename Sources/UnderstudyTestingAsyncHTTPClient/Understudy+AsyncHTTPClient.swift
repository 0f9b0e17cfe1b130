#if AsyncHTTPClient  // this module is empty without the AsyncHTTPClient trait (Package.swift)
import NIOSSL
import UnderstudyTesting

/// AsyncHTTPClient's side of the kit's HTTPS support. A product of its own
/// (`UnderstudyTestingAsyncHTTPClient`), so that suites using UnderstudyTesting alone never build
/// SwiftNIO.
extension Understudy {
    /// A client TLS configuration that trusts the daemon's CA and nothing else, with full
    /// verification (host name included), so the deliberately bad certificates are still refused:
    /// give it to an AsyncHTTPClient `HTTPClient` or to `AsyncHTTPClientTransport`.
    ///
    /// ```swift
    /// let session = try await Understudy.session(stubs: ["stubs/api.json"], tls: .expired)
    /// let transport = AsyncHTTPClientTransport(tlsConfiguration: try await session.tlsConfiguration())
    /// ```
    ///
    /// The CA is asked of the daemon through the kit's admin client; a session's and its daemon's
    /// are the same.
    public func tlsConfiguration() async throws -> TLSConfiguration {
        let pem = try await certificateAuthorityPEM()
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))
        return configuration
    }
}
#endif
