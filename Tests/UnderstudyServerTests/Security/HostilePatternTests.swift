import Foundation
import XCTest

/// Stub patterns against the running daemon: a pattern that would make a backtracking engine
/// exponential answers at once and leaves the daemon serving; one that needs backtracking is
/// refused at load time, naming the construct.
final class HostilePatternTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    private func write(_ json: String, to name: String) throws -> String {
        let path = directory + "/" + name
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testACatastrophicPatternAnswersAndTheDaemonKeepsServing() throws {
        let stubs = try write(
            #"""
            {"stubs":[
              {"id":"evil","request":{"pathPattern":"/(a+)+$"},"responses":[{"status":200,"body":"all a"}]},
              {"id":"body","request":{"method":"POST","path":"/submit","body":{"matches":"(x|xx)*y"}},"responses":[{"status":201}]},
              {"id":"hello","request":{"path":"/hello"},"responses":[{"status":200}]}
            ]}
            """#, to: "evil.json")
        let daemon = try Daemon([stubs, "--quiet"], directory: directory)
        let attack = "/" + String(repeating: "a", count: 40) + "!"
        let missed = try curl(["-o", "/dev/null", "-w", "%{http_code}", daemon.url + attack])
        XCTAssertEqual(missed.stdout, "404")
        let hit = try curl([
            "-o", "/dev/null", "-w", "%{http_code}", daemon.url + "/" + String(repeating: "a", count: 40),
        ])
        XCTAssertEqual(hit.stdout, "200")
        let bodyAttack = try curl([
            "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", String(repeating: "x", count: 50_000),
            daemon.url + "/submit",
        ])
        XCTAssertEqual(bodyAttack.stdout, "404")
        let bodyHit = try curl([
            "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", String(repeating: "x", count: 50_000) + "y",
            daemon.url + "/submit",
        ])
        XCTAssertEqual(bodyHit.stdout, "201")
        let hello = try curl(["-o", "/dev/null", "-w", "%{http_code}", daemon.url + "/hello"])
        XCTAssertEqual(hello.stdout, "200", "the event loop is free")
        let journal = try curl([daemon.url + "/__admin/requests"])
        XCTAssertTrue(journal.stdout.contains(#""total":5"#), journal.stdout)
    }

    func testBacktrackingConstructsAreRefusedAtLoadTimeByName() throws {
        let stubs = try write(
            #"""
            {"stubs":[
              {"id":"backref","request":{"pathPattern":"/(a)\\1"},"responses":[{}]},
              {"id":"lookahead","request":{"headers":{"X-A":{"matches":"(?=x)x"}}},"responses":[{}]}
            ]}
            """#, to: "backtracking.json")
        let check = try runUnderstudy(["check", stubs])
        XCTAssertEqual(check.exitCode, 1)
        XCTAssertTrue(check.stdout.contains("the backreference `\\1` at offset 4 is not supported"), check.stdout)
        XCTAssertTrue(check.stdout.contains("lookahead `(?=` at offset 0 is not supported"), check.stdout)
        XCTAssertTrue(check.stdout.contains("stubs[0].request.pathPattern"), check.stdout)
        let serve = try runUnderstudy(["serve", stubs])
        XCTAssertEqual(serve.exitCode, 1, "not served")
        XCTAssertTrue(serve.stderr.contains("linear-time engine"), serve.stderr)
    }
}
