import Foundation
import UnderstudyTesting
import XCTest

/// The XCTest form: one line of `setUp` gives each test its own session of the shared daemon
/// (unmatched requests fail the test and the session is deleted when it ends).
final class XCTestSessionTests: XCTestCase {
    var understudy: Understudy!

    override func setUp() async throws {
        understudy = try await understudySession(stubs: [Fixtures.path("echo.json")])
    }

    func testEachTestGetsAFreshSessionNamedAfterIt() async throws {
        let id = try XCTUnwrap(understudy.sessionID)
        let listed = try await Understudy.shared().admin.sessions().first { $0.id == id }
        XCTAssertEqual(listed?.name, name)
        let (status, body) = try await HTTP.send("POST", "/harness/echo", to: understudy)
        XCTAssertEqual(status, 201, "the sequence starts at its first response")
        XCTAssertEqual(body, #"{"first":true}"#)
        let seqs = try await understudy.admin.requests().map(\.seq)
        XCTAssertEqual(seqs, [1])
    }

    func testASecondTestStartsFromTheBeginningToo() async throws {
        let first = try await HTTP.send("POST", "/harness/echo", to: understudy).status
        let second = try await HTTP.send("POST", "/harness/echo", to: understudy).status
        XCTAssertEqual([first, second], [201, 200], "another test's requests did not move this sequence")
        let seqs = try await understudy.admin.requests().map(\.seq)
        XCTAssertEqual(seqs, [1, 2])
    }
}
