import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// Stub patterns compiled by the linear-time regex engine (its own tests are in
/// UnderstudyRegexTests): a construct it refuses is a load error naming it, and a pattern that is
/// catastrophic for a backtracking engine is served like any other.
final class RegexStubTests: XCTestCase {
    func testStubValidationNamesTheUnsupportedConstruct() {
        let errors = loadErrors(#"{"stubs":[{"request":{"pathPattern":"/(a)\\1"},"responses":[{}]}]}"#)
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?.jsonPath, "stubs[0].request.pathPattern")
        XCTAssertTrue(
            errors.first?.message.contains("invalid regular expression `/(a)\\1`: the backreference `\\1`") ?? false,
            errors.first?.message ?? "")
    }

    func testACatastrophicPathPatternIsServedNormally() throws {
        let engine = try makeEngine(#"{"stubs":[{"id":"evil","request":{"pathPattern":"/(a+)+$"},"responses":[{}]}]}"#)
        XCTAssertEqual(engine.get("/" + String(repeating: "a", count: 64) + "!").status, 404)
        XCTAssertEqual(engine.get("/" + String(repeating: "a", count: 64)).stubID, "evil")
        XCTAssertEqual(engine.journalEntries.count, 2)
    }
}
