import Foundation
import Testing
import UnderstudyTesting

/// What needs a daemon of its own — launching, stopping, attaching, admin tokens, a bad stub file
/// at start-up — written with Swift Testing (the REST suite uses XCTest), so both frameworks are
/// exercised. Everything else runs on sessions (`SessionHarnessTests`).
@Suite("UnderstudyTesting: launching and attaching")
struct UnderstudyHarnessTests {
    static var echoStubs: String { Fixtures.path("echo.json") }

    @Test func launchesReportsHealthAndStopsCleanly() async throws {
        let understudy = try await Understudy.launch(stubs: [Self.echoStubs])
        #expect(understudy.baseURL.host == "127.0.0.1")
        #expect(understudy.isLaunched)
        let health = try await understudy.admin.health()
        #expect(health == DaemonHealth(status: "ok", stubs: 2, requests: 0, pending: 0, waiting: 0))
        #expect(await understudy.stop() == 0)
    }

    @Test func attachUsesARunningDaemon() async throws {
        let launched = try await Understudy.launch(stubs: [Self.echoStubs])
        defer { launched.stopWithoutWaiting() }
        let attached = try await Understudy.attachOrLaunch(
            stubs: [], environment: ["UNDERSTUDY_URL": launched.baseURL.absoluteString])
        #expect(!attached.isLaunched)
        #expect(attached.baseURL == launched.baseURL)
        #expect(try await attached.admin.health().stubs == 2)
        #expect(await attached.stop() == nil, "an attached daemon is not ours to stop")
        #expect(try await launched.admin.health().status == "ok")
    }

    @Test func anAdminTokenIsSentByLaunchAndAttachAndRequiredByTheDaemon() async throws {
        let launched = try await Understudy.launch(stubs: [Self.echoStubs], adminToken: "s3cret-token")
        defer { launched.stopWithoutWaiting() }
        #expect(try await launched.admin.health().stubs == 2, "launch sends the token it started the daemon with")

        let withoutToken = Understudy.attach(url: launched.baseURL)
        do {
            _ = try await withoutToken.admin.health()
            Issue.record("an admin call without the token must be refused")
        } catch let error as UnderstudyError {
            guard case let .admin(adminError) = error else {
                Issue.record("expected an admin error, got \(error)")
                return
            }
            #expect(adminError.status == 401)
        }

        let withToken = Understudy.attach(url: launched.baseURL, adminToken: "s3cret-token")
        #expect(try await withToken.admin.health().status == "ok")
        let fromEnvironment = try await Understudy.attachOrLaunch(
            stubs: [],
            environment: [
                "UNDERSTUDY_URL": launched.baseURL.absoluteString, Understudy.adminTokenVariable: "s3cret-token",
            ])
        #expect(
            try await fromEnvironment.admin.health().status == "ok",
            "attachOrLaunch reads the token from the environment")
    }

    @Test func aBadStubFileFailsTheLaunchWithTheDaemonsError() async throws {
        let file = try Fixtures.write(#"{"stubs":[{"id":"x","responses":[{"staus":200}]}]}"#, name: "broken.json")
        let failure: UnderstudyError
        do {
            _ = try await Understudy.launch(stubs: [file])
            Issue.record("launch should have failed")
            return
        } catch {
            failure = error
        }
        guard case let .exitedBeforeReady(status, stderr) = failure else {
            Issue.record("unexpected error: \(failure)")
            return
        }
        #expect(status != 0)
        #expect(stderr.contains("broken.json:1:"), "stderr: \(stderr)")
        #expect(stderr.contains("status"), "stderr: \(stderr)")
    }

    /// `serve --openapi` from the kit: the daemon it launches finds `understudy-openapi` beside itself
    /// (both products build with the tests) and refuses what the spec does not allow.
    @Test func aLaunchedDaemonChecksRequestsAgainstAnOpenAPIDocument() async throws {
        let petstore = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("OpenAPICorpus/petstore")
        let understudy = try await Understudy.launch(
            stubs: [petstore.appendingPathComponent("stubs/valid").path],
            extraArguments: [
                "--openapi", petstore.appendingPathComponent("petstore.yaml").path, "--openapi-mode", "fail",
            ])
        defer { understudy.stopWithoutWaiting() }
        let refused = String(decoding: try RawHTTP.get("/v1/pets?limit=abc", on: understudy), as: UTF8.self)
        #expect(refused.hasPrefix("HTTP/1.1 400 "), "\(refused)")
        #expect(refused.contains("request.query.limit: `abc`: expected integer, found string"), "\(refused)")
        let answered = String(decoding: try RawHTTP.get("/v1/pets?limit=2", on: understudy), as: UTF8.self)
        #expect(answered.hasPrefix("HTTP/1.1 200 "), "\(answered)")
    }

    @Test func aMissingBinaryIsReportedWithWhereItLooked() async throws {
        #expect(throws: UnderstudyError.self) {
            try UnderstudyBinaryLocator.locate(environment: ["UNDERSTUDY_BIN": "/nonexistent/understudy"])
        }
        let found = try UnderstudyBinaryLocator.locate(environment: [:])
        #expect(found.hasSuffix("/understudy"))
    }
}
