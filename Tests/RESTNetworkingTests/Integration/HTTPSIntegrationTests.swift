import RESTNetworking
import UnderstudyTesting
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// RESTNetworking and URLSession over the daemon's HTTPS listener (`serve --https`).
///
/// On Linux, URLSession (libcurl) trusts only the machine's store: no per-process CA route works
/// (see docs/https.md). So the trust test installs the daemon's throwaway CA into
/// the system store for its duration, which needs root and an explicit opt-in
/// (`UNDERSTUDY_TEST_SYSTEM_TRUST=1`, set by `.ci/run`); elsewhere it is skipped.
final class HTTPSIntegrationTests: XCTestCase {
    func testTheHandleExposesTheHTTPSURLAndItsCAAndAnUntrustedCAIsRefused() async throws {
        let understudy = try await Understudy.launchHTTPS(stubs: [DaemonTestCase.stubDirectory])
        let https = try XCTUnwrap(understudy.httpsURL)
        XCTAssertEqual(https.scheme, "https")
        XCTAssertNotEqual(https.port, understudy.baseURL.port)
        let pem = try await understudy.admin.certificateAuthorityPEM()
        XCTAssertTrue(pem.hasPrefix("-----BEGIN CERTIFICATE-----"), pem)
        if !Self.systemTrustEnabled {
            // Nobody trusts this fresh CA: URLSession verifies and refuses it.
            let message = await Self.failure(of: https.appendingPathComponent("rest/echo"))
            XCTAssertTrue(message.contains("unable to get local issuer certificate"), message)
        }
        let status = await understudy.stop()
        XCTAssertEqual(status, 0)
    }

    func testThroughTheSystemTrustStoreRESTNetworkingWorksAndExpiredAndWrongHostAreRejected() async throws {
        guard Self.systemTrustEnabled else {
            throw XCTSkip(
                "needs root and UNDERSTUDY_TEST_SYSTEM_TRUST=1: it installs a throwaway CA in the machine's trust store"
            )
        }
        // The trust store is the machine's: scripts/test runs this suite in two processes at once (once per
        // transport), and one's `update-ca-certificates --fresh` must not rewrite the bundle while the
        // other's handshakes read it.
        let lock = open("/tmp/understudy-system-trust.lock", O_CREAT | O_RDWR, 0o644)
        XCTAssertGreaterThanOrEqual(lock, 0, "the trust store's lock file")
        flock(lock, LOCK_EX)
        defer {
            flock(lock, LOCK_UN)
            close(lock)
        }
        let understudy = try await Understudy.launchHTTPS(stubs: [DaemonTestCase.stubDirectory])
        let https = try XCTUnwrap(understudy.httpsURL)
        let anchor = "/usr/local/share/ca-certificates/understudy-test-\(getpid()).crt"
        try await understudy.admin.writeCertificateAuthority(to: anchor)
        try Self.updateTrustStore()
        do {
            // A part of the RESTNetworking suite, over TLS.
            let api = StubbedAPI(baseURL: https)
            let body = Data(#"{"title":"x"}"#.utf8)
            for publisher in [
                api.get(endpoint: "rest/echo") { $0.receivingJSON() },
                api.post(endpoint: "rest/echo", body: body) { $0.sendingJSON() },
            ] {
                let output = try await publisher.catchHTTPErrors().awaitResult().get()
                XCTAssertEqual(output.response.statusCode, 200)
            }
            let requests = try await understudy.admin.requests(path: "/rest/echo")
            XCTAssertEqual(requests.map(\.method), ["GET", "POST"])
            XCTAssertEqual(requests.last?.body, #"{"title":"x"}"#)

            // The same CA, certificates wrong in one way each: rejected for exactly that reason.
            for (mode, reason) in [
                ("expired", "certificate has expired"),
                ("wrong-host", "no alternative certificate subject name matches"),
            ] {
                let session = try await Self.createSession(on: understudy.baseURL, tls: mode)
                let message = await Self.failure(of: session.appendingPathComponent("rest/echo"))
                XCTAssertTrue(message.contains(reason), "\(mode): \(message)")
            }
            // And RESTNetworking names each reason with its own typed error.
            let typed: [(TLSCertificateMode, HTTPTransportError.TLSFailure)] = [
                (.expired, .expired), (.notYetValid, .notYetValid), (.wrongHost, .hostnameMismatch),
                (.untrusted, .untrusted),
            ]
            for (mode, failure) in typed {
                let session = try await Understudy.session(
                    stubs: [DaemonTestCase.stubDirectory], tls: mode, on: understudy)
                let error = await TLSErrorIntegrationTests.transportError(at: try XCTUnwrap(session.httpsURL))
                XCTAssertEqual(error?.kind, .tls, "\(mode): \(String(describing: error))")
                XCTAssertEqual(error?.tls, failure, "\(mode): \(String(describing: error))")
                await session.stop()
            }
        } catch {
            XCTFail("\(error)")
        }
        try? FileManager.default.removeItem(atPath: anchor)
        try Self.updateTrustStore(fresh: true)
        let status = await understudy.stop()
        XCTAssertEqual(status, 0)
    }

    static var systemTrustEnabled: Bool {
        #if os(Linux)
        getuid() == 0 && ProcessInfo.processInfo.environment["UNDERSTUDY_TEST_SYSTEM_TRUST"] == "1"
            && FileManager.default.isExecutableFile(atPath: "/usr/sbin/update-ca-certificates")
        #else
        false
        #endif
    }

    static func updateTrustStore(fresh: Bool = false) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/update-ca-certificates")
        process.arguments = fresh ? ["--fresh"] : []
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "update-ca-certificates")
    }

    /// `POST /__admin/sessions` with `{"tls": mode}`; the session's HTTPS URL.
    static func createSession(on base: URL, tls mode: String) async throws -> URL {
        var request = URLRequest(url: base.appendingPathComponent("__admin/sessions"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"tls": "\#(mode)"}"#.utf8)
        let (data, _) = try await URLSession(configuration: .ephemeral).data(for: request)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap((object["httpsUrl"] as? String).flatMap(URL.init(string:)), "\(object)")
    }

    /// The error URLSession reports for a GET, as text ("" when it succeeds).
    static func failure(of url: URL) async -> String {
        do {
            _ = try await URLSession(configuration: .ephemeral).data(from: url)
            return ""
        } catch {
            return "\(error.localizedDescription) \(error)"
        }
    }
}
