#if canImport(Security)
import Foundation
import Security

/// Apple platforms: a `URLSessionDelegate` that trusts exactly the daemon's CA for server trust,
/// so a test's URLSession reaches the HTTPS URL with full verification (validity dates and host
/// name included) and still rejects the deliberately bad certificates:
///
/// ```swift
/// let pem = try await understudy.admin.certificateAuthorityPEM()
/// let session = URLSession(configuration: .ephemeral, delegate: UnderstudyTrustDelegate(certificateAuthorityPEM: pem), delegateQueue: nil)
/// ```
///
/// Not built on Linux, where URLSession does not hand server-trust challenges to its delegate
/// (see docs/https.md). Not exercised by this repository's Linux CI.
public final class UnderstudyTrustDelegate: NSObject, URLSessionDelegate, @unchecked Sendable {  // immutable after init
    private let anchor: SecCertificate?

    /// Trusts the CA in `certificateAuthorityPEM` (what `GET /__admin/tls/ca.pem` answers).
    public init(certificateAuthorityPEM: String) {
        let base64 = certificateAuthorityPEM.split(separator: "\n")
            .filter { !$0.hasPrefix("-----") }
            .joined()
        anchor = Data(base64Encoded: base64).flatMap { SecCertificateCreateWithData(nil, $0 as CFData) }
        super.init()
    }

    public func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            let trust = challenge.protectionSpace.serverTrust, let anchor
        else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        SecTrustSetAnchorCertificates(trust, [anchor] as CFArray)
        SecTrustSetAnchorCertificatesOnly(trust, true)
        var error: CFError?
        if SecTrustEvaluateWithError(trust, &error) {
            completionHandler(.useCredential, URLCredential(trust: trust))
        } else {
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }
}
#endif
