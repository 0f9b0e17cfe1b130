/// How the HTTPS listener is set up (``HTTPServer/openHTTPS(_:)``).
public struct TLSSettings: Sendable {
    /// The port to bind; 0 lets the system pick one.
    public var port: Int
    /// The certificate the listener presents (with the daemon's generated CA).
    public var mode: CertificateMode
    /// The user's own certificate chain and key (PEM files); when set, no CA is generated and
    /// `mode` must be `valid`.
    public var certificateFile: String?
    /// The private key (PEM file) for `certificateFile`; set both or neither.
    public var keyFile: String?

    /// Creates settings; by default a generated CA and a valid certificate on a free port.
    public init(port: Int = 0, mode: CertificateMode = .valid, certificateFile: String? = nil, keyFile: String? = nil) {
        self.port = port
        self.mode = mode
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
