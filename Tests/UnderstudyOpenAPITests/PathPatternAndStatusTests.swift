import XCTest
@testable import UnderstudyOpenAPI

/// The pure rules behind `check --openapi`'s pattern mapping and `generate`'s status per response key.
final class PathPatternAndStatusTests: XCTestCase {
    private func reached(_ pattern: String, target: Bool = false) -> PathPatternSegments.Verdict {
        PathPatternSegments.reached(
            pattern: pattern, isTarget: target,
            templates: ["/events", "/events/{eventId}", "/accounts/{id}/events/{eventId}", "/files/{name}.json"],
            basePaths: ["/v1", ""])
    }

    func testSegmentsMapToTheTemplateTheyFallInside() {
        XCTAssertEqual(reached("/events/ev_[a-z0-9]+"), .templates(["/events/{eventId}"]))
        XCTAssertEqual(reached("^/v1/events/ev_\\d+$"), .templates(["/events/{eventId}"]), "anchors and a base path")
        XCTAssertEqual(reached("/v1/events/ev_[0-9]{3}(\\?.*)?", target: true), .templates(["/events/{eventId}"]))
        XCTAssertEqual(reached("/v1/events/ev_1\\?page=[0-9]+", target: true), .templates(["/events/{eventId}"]))
        XCTAssertEqual(
            reached("/accounts/acct_[0-9]+/events/(ev|evt)_[a-z]{4}"), .templates(["/accounts/{id}/events/{eventId}"]))
        XCTAssertEqual(reached("/(events)"), .templates(["/events"]), "a constructed segment matching a literal one")
        XCTAssertEqual(
            reached("/files/report\\.json"), .templates(["/files/{name}.json"]), "a literal in a mixed segment")
        XCTAssertEqual(reached("/events/[a-z]+/?"), .templates(["/events/{eventId}"]), "a trailing `/?` is dropped")
    }

    func testWhatFitsNoTemplateIsNoTemplate() {
        XCTAssertEqual(reached("/evnts/ev_[a-z0-9]+"), .templates([]))
        XCTAssertEqual(reached("/events/ev_[a-z]+/extra"), .templates([]))
        XCTAssertEqual(reached("/nothing/.*"), .templates([]), "literal segments already rule every template out")
    }

    func testWhatCannotBeReadIsUndecidedWithTheReason() {
        guard case .undecided(let why) = reached("/events/.*") else { return XCTFail("expected undecided") }
        XCTAssertTrue(why.contains("`.*` can match a `/`"), why)
        for (pattern, reason) in [
            ("/events/[^x]+", "can match a `/`"), ("/events(/[a-z]+)?", "inside a group"),
            ("/events|/accounts", "top-level `|`"), ("/events/[a-z/]+", "character class"),
            ("/events(\\/x)?", "inside a group"),
            ("events/[a-z]+", "does not start with `/`"), ("/files/[a-z]+\\.json", "template segment `{name}.json`"),
        ] {
            guard case .undecided(let why) = reached(pattern) else {
                XCTFail("\(pattern): expected undecided, got \(reached(pattern))")
                continue
            }
            XCTAssertTrue(why.contains(reason), "\(pattern): \(why)")
        }
    }

    func testEveryResponseKeyGetsItsOwnStatus() {
        let assigned = StubGenerator.statuses(for: ["201", "400", "5XX", "default"])
        XCTAssertEqual(assigned.map(\.status), [201, 400, 500, 401])
        XCTAssertEqual(
            StubGenerator.statuses(for: ["200", "500", "5XX", "default"]).map(\.status), [200, 500, 501, 400])
        XCTAssertEqual(StubGenerator.statuses(for: ["200", "default"]).map(\.status), [200, 500])
        XCTAssertEqual(
            StubGenerator.statuses(for: ["2XX", "4XX", "5XX", "default"]).map(\.status), [200, 400, 500, nil])
    }
}
