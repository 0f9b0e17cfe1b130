import Foundation
import XCTest

/// The admin token over real HTTP: `--admin-token` and `UNDERSTUDY_ADMIN_TOKEN` both protect
/// every `/__admin` call (401 with `WWW-Authenticate: Bearer` and a JSON error otherwise), leave
/// stubbed paths open, and a refused call is neither journaled nor acted on.
final class AdminTokenHTTPTests: XCTestCase {
    private var directory: String!
    private let token = "t0ken-for-tests"

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// status, then headers and body as curl -i prints them.
    private func call(_ url: String, method: String = "GET", authorization: String? = nil) throws -> (
        status: Int, text: String
    ) {
        var arguments = ["-i", "-X", method, url]
        if let authorization { arguments += ["-H", "Authorization: \(authorization)"] }
        let result = try curl(arguments)
        let statusLine = result.stdout.split(separator: "\r\n").first ?? ""
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, result.stdout)
    }

    func testTheOptionProtectsEveryAdminCallAndNothingElse() throws {
        let journal = directory + "/journal.jsonl"
        let daemon = try Daemon(
            [TestPaths.fixture("valid"), "--admin-token", token, "--journal", journal, "--quiet"],
            directory: directory)
        let missing = try call(daemon.url + "/__admin/health")
        XCTAssertEqual(missing.status, 401)
        XCTAssertTrue(missing.text.lowercased().contains("www-authenticate: bearer"), missing.text)
        XCTAssertTrue(missing.text.lowercased().contains("content-type: application/json"), missing.text)
        XCTAssertTrue(missing.text.contains(#"{"error":"#), missing.text)
        XCTAssertEqual(
            try call(daemon.url + "/__admin/requests", method: "DELETE", authorization: "Bearer wrong").status, 401)
        XCTAssertEqual(
            try call(daemon.url + "/__admin/reset", method: "POST", authorization: "Basic \(token)").status, 401)
        XCTAssertEqual(try call(daemon.url + "/__admin/nowhere", authorization: "Bearer \(token)x").status, 401)

        XCTAssertEqual(try call(daemon.url + "/hello").status, 200, "stubbed paths need no token")
        XCTAssertEqual(try call(daemon.url + "/sequence").status, 200)

        let health = try call(daemon.url + "/__admin/health", authorization: "Bearer \(token)")
        XCTAssertEqual(health.status, 200)
        XCTAssertTrue(health.text.contains(#""requests":2"#), "the refused DELETE cleared nothing: \(health.text)")
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "only the two stubbed requests are journaled")
        XCTAssertFalse(lines.contains { $0.contains("__admin") })
    }

    func testTheEnvironmentVariableSetsTheTokenAndTheOptionWins() throws {
        let fromEnvironment = try ShellDaemon(
            [TestPaths.fixture("valid"), "--quiet"],
            environment: ["UNDERSTUDY_ADMIN_TOKEN": token], directory: directory)
        XCTAssertEqual(try call(fromEnvironment.url + "/__admin/health").status, 401)
        XCTAssertEqual(try call(fromEnvironment.url + "/__admin/health", authorization: "Bearer \(token)").status, 200)

        let overridden = try ShellDaemon(
            [TestPaths.fixture("valid"), "--quiet", "--admin-token", "from-option"],
            environment: ["UNDERSTUDY_ADMIN_TOKEN": token], directory: directory)
        XCTAssertEqual(try call(overridden.url + "/__admin/health", authorization: "Bearer \(token)").status, 401)
        XCTAssertEqual(try call(overridden.url + "/__admin/health", authorization: "Bearer from-option").status, 200)

        let empty = try ShellDaemon(
            [TestPaths.fixture("valid"), "--quiet"], environment: ["UNDERSTUDY_ADMIN_TOKEN": ""],
            directory: directory)
        XCTAssertEqual(try call(empty.url + "/__admin/health").status, 200, "an empty variable means no token")
    }

    func testWithoutATokenTheAdminAPIStaysOpen() throws {
        let daemon = try ShellDaemon([TestPaths.fixture("valid"), "--quiet"], directory: directory)
        XCTAssertEqual(try call(daemon.url + "/__admin/health").status, 200)
    }

    func testUnusableTokensAreRefusedBeforeServing() throws {
        let empty = try runUnderstudy(["serve", TestPaths.fixture("valid"), "--admin-token", ""])
        XCTAssertNotEqual(empty.exitCode, 0)
        XCTAssertTrue(empty.stderr.contains("--admin-token must not be empty"), empty.stderr)
        let spaced = try runUnderstudy(["serve", TestPaths.fixture("valid"), "--admin-token", "two words"])
        XCTAssertNotEqual(spaced.exitCode, 0)
        XCTAssertTrue(spaced.stderr.contains("printable ASCII without spaces"), spaced.stderr)
    }
}
