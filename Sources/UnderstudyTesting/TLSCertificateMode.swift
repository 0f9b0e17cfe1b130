/// The certificate a session's (or a daemon's) HTTPS port presents: one that verifies, or one
/// that is wrong on purpose in exactly one way, for testing a client's refusals.
///
/// ```swift
/// let session = try await Understudy.session(stubs: ["stubs/api.json"], tls: .expired)
/// // session.httpsURL presents a certificate that expired; a client that verifies must refuse it.
/// ```
public enum TLSCertificateMode: String, Sendable, CaseIterable, Codable {
    /// Issued by the daemon's CA for `127.0.0.1` and `localhost`, currently valid.
    case valid
    /// Issued by the daemon's CA, but its validity ended in the past.
    case expired
    /// Issued by the daemon's CA, but its validity starts in the future.
    case notYetValid = "not-yet-valid"
    /// Issued by the daemon's CA, currently valid, for another host name.
    case wrongHost = "wrong-host"
    /// Valid and for the right host, but issued by a CA nobody trusts (not the daemon's).
    case untrusted
}
