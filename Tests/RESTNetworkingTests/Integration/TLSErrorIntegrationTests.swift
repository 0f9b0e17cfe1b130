import RESTNetworking
import UnderstudyTesting
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// TLS refusals reach RESTNetworking's callers as `HTTPTransportError.kind == .tls` with a typed
/// reason, against the daemon's HTTPS sessions.
final class TLSErrorIntegrationTests: XCTestCase {
    /// The transport error a GET of `rest/echo` under `base` ends with (nil if it succeeds or
    /// fails otherwise).
    static func transportError(at base: URL) async -> HTTPTransportError? {
        let result = await StubbedAPI(baseURL: base).get(endpoint: "rest/echo") { $0.receivingJSON() }
            .catchHTTPErrors().awaitResult()
        guard case let .failure(error) = result else { return nil }
        return error as? HTTPTransportError
    }

    /// Without the CA in the machine's trust store (how this suite runs unless root opts in),
    /// URLSession on Linux cannot trust the daemon's CA, so every mode — the valid one too — is
    /// refused at the first check, the issuer: `.tls(.untrusted)`, never `.other`. The daemon
    /// answered none of them.
    func testEveryCertificateModeFailsAsTypedTLSUntrustedWithoutTheCA() async throws {
        if HTTPSIntegrationTests.systemTrustEnabled { throw XCTSkip("the CA is in the machine's trust store") }
        for mode in TLSCertificateMode.allCases {
            let session = try await Understudy.session(stubs: [DaemonTestCase.stubDirectory], tls: mode)
            defer { session.stopWithoutWaiting() }
            let error = await Self.transportError(at: try XCTUnwrap(session.httpsURL))
            XCTAssertEqual(error?.kind, .tls, "\(mode): \(String(describing: error))")
            XCTAssertEqual(error?.tls, .untrusted, "\(mode): \(String(describing: error))")
            XCTAssertTrue(
                error?.description.hasPrefix("tls(untrusted) for https://127.0.0.1:") == true,
                String(describing: error))
            let answered = try await session.admin.requests()
            XCTAssertEqual(answered.count, 0, "refused in the handshake: \(answered)")
        }
    }

    /// OpenSSL's verification messages, as libcurl passes them on (the texts curl prints for
    /// the daemon's certificate modes), each to its own reason; anything else keeps its kind.
    func testLibcurlMessagesAreToldApart() {
        func classify(_ message: String, code: URLError.Code = .secureConnectionFailed) -> HTTPTransportError {
            HTTPTransportError(URLError(code, userInfo: [NSLocalizedDescriptionKey: message]), url: "https://x")
        }
        XCTAssertEqual(classify("SSL certificate problem: certificate has expired").tls, .expired)
        XCTAssertEqual(classify("SSL certificate problem: certificate is not yet valid").tls, .notYetValid)
        XCTAssertEqual(
            classify("SSL: no alternative certificate subject name matches target host name '127.0.0.1'").tls,
            .hostnameMismatch)
        XCTAssertEqual(classify("SSL certificate problem: unable to get local issuer certificate").tls, .untrusted)
        XCTAssertEqual(
            classify("SSL certificate problem: self signed certificate in certificate chain").tls, .untrusted)
        XCTAssertEqual(
            classify("OpenSSL SSL_connect: SSL_ERROR_SYSCALL").tls, .handshake("OpenSSL SSL_connect: SSL_ERROR_SYSCALL")
        )
        // Apple's codes, message or not.
        XCTAssertEqual(classify("", code: .serverCertificateHasBadDate).tls, .expired)
        XCTAssertEqual(classify("", code: .serverCertificateNotYetValid).tls, .notYetValid)
        XCTAssertEqual(classify("", code: .serverCertificateHasUnknownRoot).tls, .untrusted)
        // Not TLS: the old kinds, no reason.
        let refused = classify("Could not connect to server", code: .cannotConnectToHost)
        XCTAssertEqual(refused.kind, .cannotConnect)
        XCTAssertNil(refused.tls)
        let unknown = classify("something odd", code: .unknown)
        XCTAssertEqual(unknown.kind, .other)
        XCTAssertEqual(unknown.underlying.code, .unknown, "an unknown failure keeps its underlying error")
    }
}
