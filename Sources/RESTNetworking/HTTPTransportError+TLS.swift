import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPTransportError {
    /// Why a TLS connection was refused, when that can be told (``HTTPTransportError/tls``).
    ///
    /// Apple's URLSession gives distinct `URLError` codes for most of these; Linux's
    /// FoundationNetworking gives one code for all of them, and only libcurl's message (OpenSSL's
    /// verification result) tells them apart, so that is what is read there. A failure that
    /// matches none of them is ``handshake(_:)`` with the message, and `underlying` keeps the
    /// original error either way.
    public enum TLSFailure: Sendable, Hashable, CustomStringConvertible {
        /// The server's certificate's validity ended in the past.
        case expired
        /// The server's certificate's validity starts in the future.
        case notYetValid
        /// The certificate is not for the host the request named.
        case hostnameMismatch
        /// The certificate chains to no trusted root (an unknown or self-signed issuer).
        case untrusted
        /// Any other TLS failure (no common protocol or cipher, a broken handshake…), with the
        /// platform's reason.
        case handshake(String)

        public var description: String {
            switch self {
            case .expired: "expired"
            case .notYetValid: "notYetValid"
            case .hostnameMismatch: "hostnameMismatch"
            case .untrusted: "untrusted"
            case let .handshake(reason): "handshake(\(reason))"
            }
        }
    }

    /// The TLS failure a URLSession error reports, or nil when it is not about TLS.
    static func tlsFailure(of error: URLError, message: String) -> TLSFailure? {
        switch error.code {
        case .serverCertificateNotYetValid: return .notYetValid
        case .serverCertificateHasBadDate: return .expired
        case .serverCertificateHasUnknownRoot: return .untrusted
        default: break
        }
        if let failure = tlsFailure(message: message) { return failure }
        switch error.code {
        // Apple reports a host-name mismatch and an untrusted chain alike as -1202.
        case .serverCertificateUntrusted: return .untrusted
        case .secureConnectionFailed, .clientCertificateRejected, .clientCertificateRequired:
            return .handshake(message.isEmpty ? "URLError \(error.code.rawValue)" : message)
        default:
            let lowered = message.lowercased()
            return lowered.contains("ssl") || lowered.contains("tls") ? .handshake(message) : nil
        }
    }

    /// A TLS failure told from OpenSSL's or BoringSSL's verification message (what libcurl passes
    /// on in FoundationNetworking, and what NIOSSL reports), or nil when the message names none.
    public static func tlsFailure(message: String) -> TLSFailure? {
        let lowered = message.lowercased()
        if lowered.contains("certificate has expired") || lowered.contains("certificate_expired") { return .expired }
        if lowered.contains("not yet valid") || lowered.contains("certificate_not_yet_valid") { return .notYetValid }
        if lowered.contains("subject name matches") || lowered.contains("hostname mismatch")
            || lowered.contains("does not match target host") || lowered.contains("hostname_mismatch")
        {
            return .hostnameMismatch
        }
        if lowered.contains("unable to get local issuer certificate") || lowered.contains("unable to get issuer")
            || lowered.contains("self signed certificate") || lowered.contains("self-signed certificate")
            || lowered.contains("unknown ca") || lowered.contains("unable_to_get_issuer")
        {
            return .untrusted
        }
        return nil
    }
}
