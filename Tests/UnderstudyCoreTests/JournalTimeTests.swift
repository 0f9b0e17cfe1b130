import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The journal's `time`, written by the engine with UnderstudyTemplates' `TimeFormatting`.
final class JournalTimeTests: XCTestCase {
    func testEngineTimestampMatchesTheFormatterAcrossSecondBoundaries() throws {
        let clock = ManualEngineClock(start: Date(timeIntervalSince1970: 1_000_000_000.998))
        let engine = try makeEngine(#"{"stubs":[]}"#, clock: clock)
        for _ in 0..<4 {
            _ = engine.get("/")
            clock.advance(milliseconds: 1.5)
        }
        XCTAssertEqual(
            engine.journalObjects.map { $0["time"] as? String },
            [
                "2001-09-09T01:46:40.998Z", "2001-09-09T01:46:40.999Z", "2001-09-09T01:46:41.001Z",
                "2001-09-09T01:46:41.002Z",
            ])
    }
}
