import Foundation
import Testing
import UnderstudyTesting

/// The kit's HTTPS: sessions with `tls`, the trait's `tls:`, `httpsURL`, the CA through the kit's
/// admin client. Certificates are checked with curl (`--cacert`), a real verifying client that
/// takes a per-process CA on Linux.
@Suite("UnderstudyTesting: TLS sessions")
struct TLSSessionKitTests {
    /// curl's exit status and stderr for a GET of `url` trusting only the CA in `caFile`.
    static func curl(_ url: URL, caFile: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = [
            "--silent", "--show-error", "--max-time", "20", "--cacert", caFile, "--output", "/dev/null",
            url.absoluteString,
        ]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    static func caFile(from understudy: Understudy) async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "understudy-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("ca.pem").path
        try Data(try await understudy.certificateAuthorityPEM().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aSessionWithTLSHasAnHTTPSURLThatPresentsItsCertificate() async throws {
        let shared = try await Understudy.shared()
        let ca = try await Self.caFile(from: shared)
        let expected: [TLSCertificateMode: String] = [
            .expired: "expired", .notYetValid: "not yet valid",
            .wrongHost: "no alternative certificate subject name matches",
            .untrusted: "unable to get local issuer certificate",
        ]
        for mode in TLSCertificateMode.allCases {
            let session = try await Understudy.session(
                stubs: [Fixtures.path("echo.json")], name: "kit-tls-\(mode)", tls: mode)
            defer { session.stopWithoutWaiting() }
            let https = try #require(session.httpsURL, "\(mode)")
            #expect(https.scheme == "https")
            #expect(https.host == "127.0.0.1")
            #expect(https.port != session.baseURL.port)
            #expect(session.sessionTLS == mode)
            let listed = try #require(try await shared.admin.sessions().first { $0.id == session.sessionID })
            #expect(listed.httpsURL == https)
            let (status, stderr) = try Self.curl(https.appendingPathComponent("harness/hello"), caFile: ca)
            if mode == .valid {
                #expect(status == 0, "\(stderr)")
                #expect(
                    try await session.admin.requests().map(\.path) == ["/harness/hello"], "journalled in the session")
            } else {
                #expect(status == 60, "curl's peer-verification failure for \(mode): \(stderr)")
                #expect(stderr.contains(try #require(expected[mode])), "\(mode): \(stderr)")
                #expect(try await session.admin.requests().isEmpty, "refused in the handshake: nothing answered")
            }
        }
    }

    @Test func aSessionWithoutTLSHasNoHTTPSURL() async throws {
        let session = try await Understudy.session(name: "kit-no-tls")
        defer { session.stopWithoutWaiting() }
        #expect(session.httpsURL == nil)
        #expect(session.sessionTLS == nil)
    }

    @Test func aDaemonWithoutHTTPSRefusesATLSSessionSayingWhy() async throws {
        let daemon = try await Understudy.launch(stubs: [])
        defer { daemon.stopWithoutWaiting() }
        do {
            let session = try await Understudy.session(tls: .valid, on: daemon)
            session.stopWithoutWaiting()
            Issue.record("a session with tls on a daemon without --https")
        } catch let UnderstudyError.admin(error) {
            #expect(error.status == 400)
            #expect(error.message.contains("--https"), "\(error)")
        }
        #expect(try await daemon.admin.sessions().isEmpty, "nothing left behind")
    }

    @Test func theCertificateAuthorityComesThroughTheKitsAdminClientEvenWhenTheTaskIsCancelled() async throws {
        let shared = try await Understudy.shared()
        #expect(shared.httpsURL?.scheme == "https", "the process-wide daemon serves HTTPS")
        // URLSession ends a cancelled task's request at once with URLError.cancelled; the kit's
        // admin client takes no part in cancellation, so the CA still arrives.
        let task = Task { () async throws -> String in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await shared.admin.certificateAuthorityPEM()
        }
        let pem = try await task.value
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"), "\(pem)")
    }

    @Test func trustingURLSessionOnLinuxSaysWhyNotAndWhereToGo() async throws {
        #if canImport(FoundationNetworking)
        let session = try await Understudy.session(name: "kit-trusting-urlsession", tls: .valid)
        defer { session.stopWithoutWaiting() }
        do {
            _ = try await session.trustingURLSession()
            Issue.record("URLSession cannot trust a per-process CA on Linux")
        } catch let UnderstudyError.unsupported(reason) {
            #expect(reason.contains("tlsConfiguration()"), "\(reason)")
            #expect(reason.contains("trust store"), "\(reason)")
        }
        #endif
    }

    @Test(.understudy(stubs: Fixtures.path("echo.json"), tls: .wrongHost))
    func theTraitGivesTheTestASessionWithTLS() async throws {
        let session = try #require(Understudy.current)
        #expect(session.sessionTLS == .wrongHost)
        let https = try #require(session.httpsURL)
        let ca = try await Self.caFile(from: session)
        let (status, stderr) = try Self.curl(https.appendingPathComponent("harness/hello"), caFile: ca)
        #expect(status == 60 && stderr.contains("no alternative certificate subject name matches"), "\(stderr)")
    }
}
