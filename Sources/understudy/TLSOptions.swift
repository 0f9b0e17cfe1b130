import ArgumentParser
import UnderstudyServer

/// `serve`'s HTTPS options: parsed and checked here, carried out by `UnderstudyServer`.
struct TLSOptions: ParsableArguments {
    @Flag(help: "Also listen for HTTPS, beside the plain port (its URL follows the plain one on the readiness line).")
    var https = false

    @Option(
        help: ArgumentHelp(
            "The HTTPS port; 0 picks a free one (see the readiness line or --https-port-file).", valueName: "port"))
    var httpsPort: Int = 0

    @Option(
        help: ArgumentHelp(
            "Write the bound HTTPS port here (atomically) once listening; removed on exit.", valueName: "file"))
    var httpsPortFile: String?

    @Option(
        help: ArgumentHelp(
            "Write the generated CA certificate (PEM) here (atomically) once listening; clients trust it to reach the HTTPS port. It is also served at GET /__admin/tls/ca.pem.",
            valueName: "file"))
    var tlsCaFile: String?

    @Option(
        help: ArgumentHelp(
            "Serve this certificate chain (PEM) instead of a generated one; needs --tls-key.", valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The private key (PEM) for --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @Option(
        help: ArgumentHelp(
            "Present a certificate that is deliberately wrong: \(CertificateMode.allCases.map(\.rawValue).joined(separator: ", ")).",
            discussion:
                "valid (the default) is issued by the generated CA for localhost, 127.0.0.1 and ::1. The others differ in exactly one way: expired yesterday, valid from tomorrow, issued for wrong-host.invalid, or issued by a CA nobody is given.",
            valueName: "mode"))
    var tlsMode: String = CertificateMode.valid.rawValue

    func validate() throws {
        guard (0...65535).contains(httpsPort) else { throw ValidationError("--https-port must be between 0 and 65535") }
        guard let mode = CertificateMode(rawValue: tlsMode) else {
            throw ValidationError(
                "--tls-mode \(tlsMode) is not a mode; use one of: \(CertificateMode.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        if !https {
            let stray = [
                httpsPort != 0 ? "--https-port" : nil, httpsPortFile != nil ? "--https-port-file" : nil,
                tlsCaFile != nil ? "--tls-ca-file" : nil, tlsCert != nil ? "--tls-cert" : nil,
                tlsKey != nil ? "--tls-key" : nil, mode != .valid ? "--tls-mode" : nil,
            ].compactMap { $0 }
            if !stray.isEmpty { throw ValidationError("\(stray.joined(separator: ", ")) needs --https") }
        }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        if tlsCert != nil {
            if mode != .valid {
                throw ValidationError(
                    "--tls-mode \(tlsMode) needs the generated CA; it cannot be combined with --tls-cert")
            }
            if tlsCaFile != nil {
                throw ValidationError("--tls-ca-file writes the generated CA; with --tls-cert there is none")
            }
        }
    }

    /// The listener's settings, when HTTPS is on.
    var settings: TLSSettings? {
        guard https else { return nil }
        return TLSSettings(
            port: httpsPort, mode: CertificateMode(rawValue: tlsMode) ?? .valid,
            certificateFile: tlsCert, keyFile: tlsKey)
    }
}
