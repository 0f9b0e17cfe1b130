import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// Response sequences: order, `times`, and every `afterLast` mode.
final class SequenceTests: XCTestCase {
    private func statuses(_ engine: StubEngine, _ count: Int, path: String = "/s") -> [Int] {
        (0..<count).map { _ in engine.get(path).status }
    }

    func testRepeatIsTheDefaultAndKeepsServingTheLast() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"request":{"path":"/s"},"responses":[{"status":201},{"status":202}]}]}"#)
        XCTAssertEqual(statuses(engine, 5), [201, 202, 202, 202, 202])
    }

    func testCycleStartsOver() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"request":{"path":"/s"},"responses":[{"status":201},{"status":202},{"status":203}],"afterLast":"cycle"}]}"#
        )
        XCTAssertEqual(statuses(engine, 7), [201, 202, 203, 201, 202, 203, 201])
    }

    func testExhaustStopsMatchingSoLaterStubsAnswer() throws {
        let engine = try makeEngine(
            #"""
            {"stubs":[
              {"id":"two-429s","request":{"path":"/s"},"responses":[{"status":429,"times":2}],"afterLast":"exhaust"},
              {"id":"fallback","request":{"path":"/s"},"responses":[{"status":200}]}
            ]}
            """#)
        XCTAssertEqual(statuses(engine, 4), [429, 429, 200, 200])
        XCTAssertEqual(engine.journalEntries.map(\.stubID), ["two-429s", "two-429s", "fallback", "fallback"])
    }

    func testExhaustWithNothingElseGivesTheUnmatchedResponse() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"id":"once","request":{"path":"/s"},"responses":[{"status":503}],"afterLast":"exhaust"}]}"#,
            unmatchedStatus: 418)
        XCTAssertEqual(statuses(engine, 3), [503, 418, 418])
        XCTAssertTrue(engine.get("/s").text.contains("stub is exhausted"))
    }

    func testTimesServesAResponseThatManyTimesBeforeAdvancing() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"request":{"path":"/s"},"responses":[{"status":500,"times":3},{"status":200,"times":2},{"status":204}],"afterLast":"cycle"}]}"#
        )
        XCTAssertEqual(statuses(engine, 8), [500, 500, 500, 200, 200, 204, 500, 500])
    }

    func testJournalRecordsTheResponseIndex() throws {
        let engine = try makeEngine(#"{"stubs":[{"request":{"path":"/s"},"responses":[{"times":2},{}]}]}"#)
        _ = statuses(engine, 4)
        XCTAssertEqual(engine.journalObjects.map { $0["responseIndex"] as? Int }, [0, 0, 1, 1])
    }
}
