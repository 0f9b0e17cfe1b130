#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibeventTLS

/// A private key and its certificate, owned here and freed once in `deinit`.
final class TLSIdentity {
    let handle: UnsafeMutablePointer<understudy_tls_identity>
    /// OpenSSL's entry points (``OpenSSLLibrary``).
    private let api: UnsafePointer<understudy_openssl>

    private init(handle: UnsafeMutablePointer<understudy_tls_identity>, api: UnsafePointer<understudy_openssl>) {
        self.handle = handle
        self.api = api
    }

    deinit {
        understudy_tls_identity_free(api, handle)
    }

    /// A fresh self-signed CA.
    static func authority(named name: String, api: UnsafePointer<understudy_openssl>) throws(ServerError)
        -> TLSIdentity
    {
        try make(api) { understudy_tls_make_ca(api, name, $0, $1) }
    }

    /// A server certificate issued by `issuer` for `hosts`, valid between the two offsets from now.
    static func leaf(issuedBy issuer: TLSIdentity, hosts: [String], notBefore: Int, notAfter: Int) throws(ServerError)
        -> TLSIdentity
    {
        try make(issuer.api) {
            understudy_tls_make_leaf(
                issuer.api, issuer.handle, hosts.first ?? "understudy", hosts.joined(separator: ","), notBefore,
                notAfter, $0, $1)
        }
    }

    /// The certificate as PEM.
    var certificatePEM: String { Self.take(understudy_tls_certificate_pem(api, handle)) }
    /// The private key as PEM (PKCS#8).
    var keyPEM: String { Self.take(understudy_tls_key_pem(api, handle)) }

    private static func make(
        _ api: UnsafePointer<understudy_openssl>,
        _ body: (UnsafeMutablePointer<CChar>, Int) -> UnsafeMutablePointer<understudy_tls_identity>?
    ) throws(ServerError) -> TLSIdentity {
        var error = [CChar](repeating: 0, count: 512)
        let handle = error.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        guard let handle else { throw .setupFailed(TLSIdentity.message(error)) }
        return TLSIdentity(handle: handle, api: api)
    }

    /// The NUL-terminated message the shim wrote into `buffer`.
    static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
