import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTPS (`understudy serve --https`): the handle's HTTPS URL and the CA a client must trust.
///
/// How a client trusts the CA depends on the platform (see docs/https.md): on Linux,
/// URLSession has no per-process route (it honours only the machine's trust store).
extension Understudy {
    /// The HTTPS base URL (`https://127.0.0.1:PORT`) of a daemon launched with `--https`; nil
    /// without it, or for an attached daemon.
    public var httpsURL: URL? { process?.httpsURL }

    /// Launches a daemon that also serves HTTPS, presenting `certificate` (`valid`, `expired`,
    /// `not-yet-valid`, `wrong-host` or `untrusted`); otherwise as ``launch(stubs:journalFile:unmatchedStatus:adminToken:extraArguments:binary:startupTimeout:)``.
    public static func launchHTTPS(stubs: [String], certificate: String = "valid", journalFile: String? = nil,
                                   adminToken: String? = nil, extraArguments: [String] = [],
                                   binary: String? = nil) async throws(UnderstudyError) -> Understudy {
        try await launch(stubs: stubs, journalFile: journalFile, adminToken: adminToken,
                         extraArguments: ["--https", "--tls-mode", certificate] + extraArguments, binary: binary)
    }
}

extension UnderstudyAdmin {
    /// The daemon's generated CA certificate as PEM (`GET /__admin/tls/ca.pem`).
    public func certificateAuthorityPEM() async throws -> String {
        var request = URLRequest(url: baseURL.appendingPathComponent("__admin/tls/ca.pem"))
        if let adminToken { request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization") }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            throw UnderstudyError.admin(AdminError(method: "GET", path: "/__admin/tls/ca.pem", status: status,
                                                   message: String(decoding: data, as: UTF8.self), errors: []))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes the CA (PEM) to `path`, for clients that take a file (curl `--cacert`, Python's
    /// `cafile`, the machine's trust store); returns `path`.
    @discardableResult
    public func writeCertificateAuthority(to path: String) async throws -> String {
        try Data(try await certificateAuthorityPEM().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }
}
