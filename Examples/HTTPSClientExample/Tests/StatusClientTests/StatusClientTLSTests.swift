import AsyncHTTPClient
import Foundation
import RESTNetworking
import StatusClient
import Testing
import UnderstudyTesting
import UnderstudyTestingAsyncHTTPClient

// Each certificate mode in its own TLS session of the one daemon this test process shares, the
// cases run in parallel. The client trusts the daemon's CA through `tlsConfiguration()` (per
// client: no trust store, no root), so `valid` is answered and each certificate that is wrong on
// purpose is refused for its own reason, not for an unknown issuer.

/// AsyncHTTPClient retries a failed connection establishment, a refused certificate included, with
/// backoff until the request's deadline: with `HTTPClient.shared` each refused mode took 60 s to fail.
/// A certificate refusal is final, so this client reports the first one.
let noRetryClient: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.retryConnectionEstablishment = false
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
}()

/// What each mode must end in: nil for an answer, else the typed TLS refusal.
let expectations: [(TLSCertificateMode, HTTPTransportError.TLSFailure?)] = [
    (.valid, nil),
    (.expired, .expired),
    (.notYetValid, .notYetValid),
    (.wrongHost, .hostnameMismatch),
    (.untrusted, .untrusted),
]

@Test(arguments: expectations)
func eachCertificateModeEndsAsItShould(mode: TLSCertificateMode, refusal: HTTPTransportError.TLSFailure?) async throws {
    let session = try await Understudy.session(tls: mode)
    defer { session.stopWithoutWaiting() }
    try await session.install(Stub.get("/v1/status").respond(.json(["service": "orders", "healthy": true])))
    let client = StatusClient(
        baseURL: try #require(session.httpsURL), httpClient: noRetryClient, tls: try await session.tlsConfiguration())

    guard let refusal else {
        #expect(try await client.status() == ServiceStatus(service: "orders", healthy: true))
        await session.verify(.once, .get("/v1/status"))
        return
    }
    let error = await #expect(throws: HTTPTransportError.self) { try await client.status() }
    #expect(error?.kind == .tls)
    #expect(error?.tls == refusal, "\(mode): \(String(describing: error))")
    // Refused in the handshake: the daemon answered nothing.
    await session.verify(.never, .get("/v1/status"))
}
