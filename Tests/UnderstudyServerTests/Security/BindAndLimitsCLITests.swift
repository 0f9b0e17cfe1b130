import Foundation
import XCTest

/// The CLI's exposure and resource options: a non-loopback `--host` needs `--allow-remote` (and
/// warns), `--idle-timeout` and `--max-header-bytes` reach the transport, and the open-file limit
/// is raised at start-up, with a clear warning when it cannot cover `--max-connections`.
final class BindAndLimitsCLITests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    func testANonLoopbackHostIsRefusedWithoutAllowRemote() throws {
        for host in ["0.0.0.0", "::", "192.0.2.1", "127.example.com"] {
            let result = try runUnderstudy(["serve", TestPaths.fixture("valid"), "--host", host])
            XCTAssertNotEqual(result.exitCode, 0, host)
            XCTAssertTrue(result.stderr.contains("--host \(host) is not a loopback address"), result.stderr)
            XCTAssertTrue(result.stderr.contains("--allow-remote"), result.stderr)
            XCTAssertEqual(result.stdout, "", "nothing was served")
        }
    }

    func testLoopbackHostsNeedNoFlag() throws {
        for host in ["127.0.0.1", "localhost", "127.0.0.2"] {
            let daemon = try Daemon([TestPaths.fixture("valid"), "--host", host, "--quiet"], directory: directory)
            XCTAssertEqual(daemon.stderr, "", host)
        }
    }

    func testAllowRemoteBindsAndWarns() throws {
        let daemon = try Daemon(
            [TestPaths.fixture("valid"), "--host", "0.0.0.0", "--allow-remote", "--quiet"], directory: directory)
        let hello = try curl(["-i", daemon.url + "/hello"])
        XCTAssertTrue(hello.stdout.hasPrefix("HTTP/1.1 200"), hello.stdout)
        XCTAssertTrue(daemon.stderr.contains("warning: listening on 0.0.0.0 (--allow-remote)"), daemon.stderr)
        XCTAssertTrue(daemon.stderr.contains("the admin API has no authentication (pass --admin-token)"), daemon.stderr)

        let guarded = try Daemon(
            [TestPaths.fixture("valid"), "--host", "0.0.0.0", "--allow-remote", "--admin-token", "tok", "--quiet"],
            directory: directory)
        XCTAssertTrue(guarded.stderr.contains("the admin API requires the admin token"), guarded.stderr)
    }

    func testNewOptionsAreValidated() throws {
        let cases: [([String], String)] = [
            (["--idle-timeout", "0"], "--idle-timeout must be between 1 and 86400"),
            (["--max-header-bytes", "10"], "--max-header-bytes must be between 256"),
            (["--max-connections", "0"], "--max-connections must be between 1"),
        ]
        for (arguments, message) in cases {
            let result = try runUnderstudy(["serve", TestPaths.fixture("valid")] + arguments)
            XCTAssertNotEqual(result.exitCode, 0, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
        let help = try runUnderstudy(["serve", "--help"])
        for option in [
            "--allow-remote", "--admin-token", "UNDERSTUDY_ADMIN_TOKEN", "--idle-timeout", "--max-header-bytes",
            "--max-connections",
        ] {
            XCTAssertTrue(help.stdout.contains(option), "\(option) missing from --help:\n\(help.stdout)")
        }
    }

    func testIdleTimeoutReachesTheTransport() throws {
        let daemon = try Daemon([TestPaths.fixture("valid"), "--idle-timeout", "1", "--quiet"], directory: directory)
        let connection = try RawConnection(port: daemon.port)
        connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.status, 200)
        // The default (60 s) would outlast RawConnection's 5 s read timeout; 1 s closes it first.
        XCTAssertTrue(connection.readsEndOfStream(), "the daemon closed the idle connection")
    }

    func testMaxHeaderBytesReachesTheTransport() throws {
        let daemon = try Daemon(
            [TestPaths.fixture("valid"), "--max-header-bytes", "1024", "--quiet"], directory: directory)
        let big = try RawConnection(port: daemon.port)
        big.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 2000))\r\n\r\n")
        let status = big.readResponse()?.status ?? 0
        XCTAssertTrue([400, 431].contains(status), "status \(status)")
        let fine = try RawConnection(port: daemon.port)
        fine.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Small: \(String(repeating: "s", count: 500))\r\n\r\n")
        XCTAssertEqual(fine.readResponse()?.status, 200)
    }

    func testMaxHeaderCountReachesTheTransport() throws {
        let daemon = try Daemon(
            [TestPaths.fixture("valid"), "--max-header-count", "3", "--quiet"], directory: directory)
        let many = try RawConnection(port: daemon.port)
        many.send("GET /hello HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n")
        let refused = try XCTUnwrap(many.readResponse())
        XCTAssertEqual(refused.status, 431)
        XCTAssertTrue(refused.body.contains("more than 3 header fields"), refused.body)
        let fine = try RawConnection(port: daemon.port)
        fine.send("GET /hello HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\n\r\n")
        XCTAssertEqual(fine.readResponse()?.status, 200)
    }

    func testTheOpenFileLimitIsRaisedToTheHardLimitByDefault() throws {
        let daemon = try ShellDaemon(
            [TestPaths.fixture("valid"), "--quiet"], shellPrefix: "ulimit -Sn 256; ulimit -Hn 4096;",
            directory: directory)
        XCTAssertEqual(daemon.openFileLimit, 4096)
        XCTAssertEqual(daemon.stderr, "")
    }

    func testMaxConnectionsWithinTheHardLimitIsCoveredQuietly() throws {
        let daemon = try ShellDaemon(
            [TestPaths.fixture("valid"), "--quiet", "--max-connections", "2000"],
            shellPrefix: "ulimit -Sn 256; ulimit -Hn 4096;", directory: directory)
        XCTAssertEqual(daemon.openFileLimit, 2000 + 64)
        XCTAssertEqual(daemon.stderr, "")
    }

    func testMaxConnectionsBeyondTheHardLimitWarnsAndStillServes() throws {
        let daemon = try ShellDaemon(
            [TestPaths.fixture("valid"), "--quiet", "--max-connections", "5000"],
            shellPrefix: "ulimit -Sn 256; ulimit -Hn 1024;", directory: directory)
        XCTAssertEqual(daemon.openFileLimit, 1024, "raised as far as the hard limit allows")
        XCTAssertTrue(
            daemon.stderr.contains(
                "--max-connections 5000 needs about 5064 open files, but the limit is 1024 (hard limit 1024)"),
            daemon.stderr)
        XCTAssertTrue(daemon.stderr.contains("connections beyond about 960 will be refused"), daemon.stderr)
        let hello = try curl(["-i", daemon.url + "/hello"])
        XCTAssertTrue(hello.stdout.hasPrefix("HTTP/1.1 200"), hello.stdout)
    }
}
