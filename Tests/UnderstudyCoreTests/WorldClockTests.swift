import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The world clock in the engine, without sockets: modes, the schedule an advance fires in time
/// order, the admin API's answers and refusals, and the parsing of instants and durations.
final class WorldClockTests: XCTestCase {
    func testFrozenClockStopsAndAdvancesBothReadings() {
        let source = ManualEngineClock()
        let clock = WorldClock(source: source, start: .frozen(at: 1_893_456_000))
        let mono = clock.monotonicNanoseconds
        source.advance(seconds: 100)
        XCTAssertEqual(clock.nowSeconds, 1_893_456_000)
        XCTAssertEqual(clock.monotonicNanoseconds, mono, "a frozen clock does not follow real time")
        clock.advance(byNanoseconds: 30_000_000_000)
        XCTAssertEqual(clock.nowSeconds, 1_893_456_030)
        XCTAssertEqual(clock.monotonicNanoseconds, mono + 30_000_000_000)
    }

    func testResumingNeverMovesTheMonotonicReadingBackwards() {
        let source = ManualEngineClock()
        let clock = WorldClock(source: source)
        clock.freeze()
        clock.advance(byNanoseconds: 3_600_000_000_000)
        let frozen = clock.monotonicNanoseconds
        clock.resume()
        XCTAssertEqual(clock.mode, .real)
        XCTAssertGreaterThanOrEqual(clock.monotonicNanoseconds, frozen)
        XCTAssertEqual(clock.nowSeconds, source.now.timeIntervalSince1970, "real again: the wall reading is real time")
    }

    func testAnAdvanceFiresHeldItemsInTimeOrderEachAtItsOwnTime() {
        let clock = WorldClock(source: ManualEngineClock(), start: .frozen(at: 1000))
        let base = clock.monotonicNanoseconds
        var seen: [Double] = []
        for (seconds, name) in [(20, "b"), (10, "a"), (40, "late")] {
            clock.schedule.hold(
                dueNanoseconds: base + UInt64(seconds) * 1_000_000_000,
                fire: {
                    seen.append(clock.nowSeconds)
                    return ClockEvent(kind: .response, stubID: name)
                }, release: { _ in })
        }
        let fired = clock.advance(byNanoseconds: 30_000_000_000)
        XCTAssertEqual(fired.map(\.stubID), ["a", "b"])
        XCTAssertEqual(fired.map(\.at), [1010, 1020])
        XCTAssertEqual(seen, [1010, 1020])
        XCTAssertEqual(clock.nowSeconds, 1030)
        XCTAssertEqual(clock.schedule.count, 1, "the item due after the advance still waits")
    }

    func testResumeReleasesHeldItemsWithWhatRemains() {
        let clock = WorldClock(source: ManualEngineClock(), start: .frozen(at: 1000))
        var released: [UInt64] = []
        clock.schedule.hold(
            dueNanoseconds: clock.monotonicNanoseconds + 5_000_000_000, fire: { nil },
            release: { released.append($0) })
        clock.advance(byNanoseconds: 2_000_000_000)
        clock.resume()
        XCTAssertEqual(released, [3_000_000_000])
        XCTAssertEqual(clock.schedule.count, 0)
    }

    func testTheRateLimitWindowRollsWithAnAdvanceAndIsListed() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"id":"r","request":{"path":"/r"},"rateLimit":{"limit":1,"window":60},"responses":[{"status":200}]}]}"#
        )
        XCTAssertEqual(
            engine.adminCall("POST", "/__admin/clock", body: #"{"freeze":"2030-01-01T00:00:00Z"}"#).status, 200)
        XCTAssertEqual(engine.get("/r").status, 200)
        XCTAssertEqual(engine.get("/r").status, 429)
        let answer = engine.adminCall("POST", "/__admin/clock", body: #"{"advance":"PT1M"}"#).jsonObject
        let fired = try XCTUnwrap(answer["fired"] as? [[String: Any]])
        XCTAssertEqual(fired.map { $0["kind"] as? String }, ["rateLimitWindow"])
        XCTAssertEqual(fired.first?["at"] as? String, "2030-01-01T00:01:00.000Z")
        XCTAssertEqual(engine.get("/r").status, 200)
        let dated = engine.get("/r")
        XCTAssertEqual(dated.status, 429)
        XCTAssertEqual(dated.headers["Date"], "Tue, 01 Jan 2030 00:01:00 GMT")
        XCTAssertEqual(engine.journalObjects.last?["time"] as? String, "2030-01-01T00:01:00.000Z")
        XCTAssertNotNil(engine.journalObjects.last?["wallTime"] as? String)
    }

    func testARealClockWritesNoDateAndNoWallTime() throws {
        let engine = try makeEngine(#"{"stubs":[{"request":{"path":"/r"},"responses":[{"status":200}]}]}"#)
        XCTAssertNil(engine.get("/r").headers["Date"], "the transport writes Date on a real clock")
        XCTAssertNil(engine.journalObjects.last?["wallTime"])
    }

    func testBadClockCallsAre400sThatChangeNothing() throws {
        let engine = try makeEngine(#"{"stubs":[]}"#)
        _ = engine.adminCall("POST", "/__admin/clock", body: #"{"freeze":"2030-01-01T00:00:00Z"}"#)
        for (body, why) in [
            (#"{"set":"2029-01-01T00:00:00Z"}"#, "backwards"), (#"{"advance":"PT"}"#, "duration"),
            (#"{"advance":"P1M"}"#, "duration"), (#"{"frezee":null}"#, "did you mean `freeze`"),
            (#"{"real":false}"#, "must be true"), ("[]", "JSON object"),
        ] {
            let response = engine.adminCall("POST", "/__admin/clock", body: body)
            XCTAssertEqual(response.status, 400, body)
            XCTAssertTrue((response.jsonObject["error"] as? String ?? "").contains(why), "\(body): \(response.text)")
        }
        XCTAssertEqual(
            engine.adminCall("GET", "/__admin/clock").jsonObject["now"] as? String, "2030-01-01T00:00:00.000Z")
    }

    func testISO8601Durations() {
        XCTAssertEqual(TimeFormatting.parseISO8601Duration("PT30S"), 30)
        XCTAssertEqual(TimeFormatting.parseISO8601Duration("PT1H30M"), 5400)
        XCTAssertEqual(TimeFormatting.parseISO8601Duration("P1DT12H"), 129_600)
        XCTAssertEqual(TimeFormatting.parseISO8601Duration("PT0.5S"), 0.5)
        XCTAssertEqual(TimeFormatting.parseISO8601Duration("P2W"), 1_209_600)
        for bad in ["", "P", "PT", "30S", "P1M", "PT1S1H", "PT-1S", "P1H"] {
            XCTAssertNil(TimeFormatting.parseISO8601Duration(bad), bad)
        }
    }

    func testASessionBodyNamesAnUnknownClockMode() {
        guard
            case .failure(let failure) = SessionRequest.decode(
                Array(#"{"clock":{"frozen":"2030-01-01T00:00:00Z"}}"#.utf8))
        else {
            return XCTFail("an unknown mode must be refused")
        }
        XCTAssertTrue(failure.response.text.contains("did you mean `frozenAt`"), failure.response.text)
        guard case .success(let request) = SessionRequest.decode(Array(#"{"clock":{"offset":"-PT1H"}}"#.utf8)) else {
            return XCTFail("an offset is a mode")
        }
        XCTAssertEqual(request.clock, .offset(seconds: -3600))
    }
}
