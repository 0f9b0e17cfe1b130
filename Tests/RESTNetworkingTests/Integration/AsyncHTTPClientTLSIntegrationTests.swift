#if AsyncHTTPClient  // the package trait (Package.swift); scripts/test turns it on
import AsyncHTTPClient
import NIOSSL
import RESTNetworking
import RESTNetworkingAsyncHTTPClient
import UnderstudyTesting
import UnderstudyTestingAsyncHTTPClient
import XCTest

/// The AsyncHTTPClient transport over the daemon's HTTPS sessions, trusting the daemon's CA per
/// client (`tlsConfiguration()`), with no machine trust store involved: `valid` answers, and each
/// certificate that is wrong on purpose is refused with its own typed reason.
final class AsyncHTTPClientTLSIntegrationTests: XCTestCase {
    struct TLSAPI: RESTAPIProtocol {
        let baseURL: URL
        let transport: any RESTTransport
        let pacer = RequestPacer.unpaced
    }

    private static let expected: [TLSCertificateMode: HTTPTransportError.TLSFailure] = [
        .expired: .expired, .notYetValid: .notYetValid, .wrongHost: .hostnameMismatch, .untrusted: .untrusted,
    ]

    /// GET `rest/echo` on `session`'s HTTPS URL through AsyncHTTPClient with `tls`.
    private static func get(_ session: Understudy, tls: TLSConfiguration?) async throws -> Result<
        HTTPResponseOutput, any Error
    > {
        let transport = AsyncHTTPClientTransport(client: TestTransport.client(), tlsConfiguration: tls)
        let api = TLSAPI(baseURL: try XCTUnwrap(session.httpsURL), transport: transport)
        return await api.get(endpoint: "rest/echo").catchHTTPErrors().awaitResult()
    }

    func testTrustingTheCAValidAnswersAndEachBadCertificateFailsWithItsOwnReason() async throws {
        for mode in TLSCertificateMode.allCases {
            let session = try await Understudy.session(stubs: [DaemonTestCase.stubDirectory], tls: mode)
            defer { session.stopWithoutWaiting() }
            let result = try await Self.get(session, tls: try await session.tlsConfiguration())
            let answered = try await session.admin.requests()
            if mode == .valid {
                XCTAssertEqual(try result.get().response.statusCode, 200)
                XCTAssertEqual(answered.map(\.path), ["/rest/echo"])
                continue
            }
            let error = try XCTUnwrap(
                result.failure as? HTTPTransportError, "\(mode): \(String(describing: result.failure))")
            XCTAssertEqual(error.kind, .tls, "\(mode): \(error)")
            XCTAssertEqual(error.tls, Self.expected[mode], "\(mode): \(error)")
            XCTAssertTrue(
                error.cause is NIOSSLError || error.cause is NIOSSLExtraError,
                "the NIOSSL error is kept: \(error.cause)")
            XCTAssertEqual(answered.count, 0, "\(mode): refused in the handshake, nothing answered: \(answered)")
        }
    }

    /// Without the CA (the client's default roots), every mode is refused at the issuer, as
    /// OpenSSL would: `.untrusted`, the valid one too.
    func testWithoutTheCAEveryModeIsUntrusted() async throws {
        for mode in TLSCertificateMode.allCases {
            let session = try await Understudy.session(stubs: [DaemonTestCase.stubDirectory], tls: mode)
            defer { session.stopWithoutWaiting() }
            let result = try await Self.get(session, tls: nil)
            let error = try XCTUnwrap(
                result.failure as? HTTPTransportError, "\(mode): \(String(describing: result.failure))")
            XCTAssertEqual(error.tls, .untrusted, "\(mode): \(error)")
        }
    }
}
#endif
