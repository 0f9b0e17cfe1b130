/// Which certificate an HTTPS listener presents: a good one, or one wrong in exactly one way so a
/// client's rejection of it can be tested.
public enum CertificateMode: String, CaseIterable, Sendable {
    /// Issued by the daemon's CA for `localhost`, `127.0.0.1` and `::1`, valid now.
    case valid
    /// As `valid`, but its validity ended yesterday.
    case expired
    /// As `valid`, but its validity starts tomorrow.
    case notYetValid = "not-yet-valid"
    /// As `valid`, but issued for `wrong-host.invalid` only.
    case wrongHost = "wrong-host"
    /// Valid for the right hosts, but issued by a second CA that is never handed out.
    case untrusted
}
