import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTPS (`understudy serve --https`): the handle's HTTPS URL and the CA a client must trust.
///
/// How a client trusts the CA depends on the platform (see docs/https.md): on Linux,
/// URLSession has no per-process route (it honours only the machine's trust store).
extension Understudy {
    /// The HTTPS base URL (`https://127.0.0.1:PORT`) of a daemon launched with `--https` (the
    /// process-wide one included), or of a session created with `tls`; nil without one, or for an
    /// attached daemon.
    public var httpsURL: URL? {
        if case let .session(lease) = backing { return lease.httpsURL }
        return process?.httpsURL
    }

    /// The daemon's CA (PEM): what a client must trust to reach `httpsURL`, for a session as for
    /// its daemon (asked of the daemon's main port through the kit's admin client).
    public func certificateAuthorityPEM() async throws -> String {
        try await sessionHost.admin.certificateAuthorityPEM()
    }

    /// A URLSession that trusts the daemon's CA (and nothing else) for the HTTPS URL, with full
    /// verification, so the deliberately bad certificates are still refused.
    ///
    /// Apple platforms only: on Linux, URLSession (FoundationNetworking, libcurl) neither hands
    /// server-trust challenges to its delegate nor takes a per-process CA, so this throws
    /// `UnderstudyError.unsupported` saying so. There, use AsyncHTTPClient with
    /// `tlsConfiguration()` (product `UnderstudyTestingAsyncHTTPClient`), or the machine's trust store
    /// (`admin.writeCertificateAuthority(to:)`); see docs/https-swift.md.
    public func trustingURLSession(configuration: URLSessionConfiguration = .ephemeral) async throws -> URLSession {
        #if canImport(Security)
        let pem = try await certificateAuthorityPEM()
        return URLSession(
            configuration: configuration,
            delegate: UnderstudyTrustDelegate(certificateAuthorityPEM: pem), delegateQueue: nil)
        #else
        throw UnderstudyError.unsupported(
            "trustingURLSession() cannot work on this platform: URLSession here (FoundationNetworking, libcurl) trusts only "
                + "the machine's trust store and never asks its delegate about server trust. Use AsyncHTTPClient with "
                + "understudy.tlsConfiguration() (import UnderstudyTestingAsyncHTTPClient), or install admin.certificateAuthorityPEM() "
                + "in the system trust store (needs root); see docs/https-swift.md")
        #endif
    }

    /// Launches a daemon that also serves HTTPS, presenting `certificate` (`valid`, `expired`,
    /// `not-yet-valid`, `wrong-host` or `untrusted`); otherwise as ``launch(stubs:journalFile:unmatchedStatus:adminToken:extraArguments:binary:startupTimeout:)``.
    public static func launchHTTPS(
        stubs: [String], certificate: String = "valid", journalFile: String? = nil,
        adminToken: String? = nil, extraArguments: [String] = [],
        binary: String? = nil
    ) async throws(UnderstudyError) -> Understudy {
        try await launch(
            stubs: stubs, journalFile: journalFile, adminToken: adminToken,
            extraArguments: ["--https", "--tls-mode", certificate] + extraArguments, binary: binary)
    }
}

extension UnderstudyAdmin {
    /// The daemon's generated CA certificate as PEM (`GET /__admin/tls/ca.pem`), through the
    /// kit's own admin client (not URLSession, which a cancelled test can freeze on Linux). A
    /// session's admin asks the session's port, which answers with its daemon's CA.
    public func certificateAuthorityPEM() async throws -> String {
        String(decoding: try await sendForData("GET", "/__admin/tls/ca.pem"), as: UTF8.self)
    }

    /// Writes the CA (PEM) to `path`, for clients that take a file (curl `--cacert`, Python's
    /// `cafile`, the machine's trust store); returns `path`.
    @discardableResult
    public func writeCertificateAuthority(to path: String) async throws -> String {
        try Data(try await certificateAuthorityPEM().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }
}
