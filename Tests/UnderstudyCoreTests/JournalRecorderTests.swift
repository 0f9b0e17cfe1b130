import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The journal recorder owns what a ticket carries to its entry (issue 40): a reason phrase set on
/// one ticket is that ticket's, not the engine's, so it cannot be journaled with another request
/// whose ticket happens to be committed first.
final class JournalRecorderTests: XCTestCase {
    private let stubs = #"""
        {"stubs":[
          {"id":"ok","request":{"path":"/ok"},"responses":[{"status":201,"body":"hello"}]},
          {"id":"slow","request":{"path":"/slow"},"responses":[{"status":200,"delayMs":250,"body":"late"}]}
        ]}
        """#

    func testAReasonPhraseIsJournaledWithItsOwnRequestOnly() throws {
        let engine = try makeEngine(stubs)
        let slow = try XCTUnwrap(engine.handle(HTTPRequest(method: "GET", target: "/slow"), awaitingDelivery: true).1)
        let ok = try XCTUnwrap(engine.handle(HTTPRequest(method: "GET", target: "/ok"), awaitingDelivery: true).1)
        slow.sentReason = "Eventually"
        ok.commit(.answered(status: 201, headers: [:], body: Array("hello".utf8)))
        slow.commit(.answered(status: 200, headers: [:], body: Array("late".utf8)))
        let entries = engine.journalObjects
        XCTAssertEqual(entries.map { $0["path"] as? String }, ["/ok", "/slow"])
        let reasons = entries.map { ($0["response"] as? [String: Any])?["reason"] as? String }
        XCTAssertEqual(reasons, [nil, "Eventually"], "each entry carries its own ticket's phrase")
        XCTAssertNil(slow.sentReason, "the commit that used the phrase cleared it")
    }
}
