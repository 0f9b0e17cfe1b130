import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// Rate limits with an injected clock: windows slide, `Retry-After` is computed, nothing sleeps.
final class RateLimitTests: XCTestCase {
    private func engine(_ rule: String, clock: ManualEngineClock, responses: String = #"[{"status":200}]"#) throws
        -> StubEngine
    {
        try makeEngine(
            #"{"stubs":[{"id":"limited","request":{"path":"/r"},"rateLimit":"# + rule + #","responses":"# + responses
                + "}]}", clock: clock)
    }

    func testSlidingWindowRefusesOverTheLimitWithCeilSecondsRetryAfter() throws {
        let clock = ManualEngineClock()
        let engine = try engine(#"{"limit":2,"window":10}"#, clock: clock)
        let first = engine.get("/r")
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.headers["RateLimit-Limit"], "2")
        XCTAssertEqual(first.headers["RateLimit-Remaining"], "1")
        XCTAssertEqual(first.headers["RateLimit-Reset"], "10")
        clock.advance(seconds: 3)
        let second = engine.get("/r")
        XCTAssertEqual(second.status, 200)
        XCTAssertEqual(second.headers["RateLimit-Remaining"], "0")
        XCTAssertEqual(second.headers["RateLimit-Reset"], "7", "the oldest slot frees 7 s from now")
        clock.advance(seconds: 2.5)
        let refused = engine.get("/r")
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(refused.headers["Retry-After"], "5", "4.5 s until the oldest slot frees, rounded up")
        XCTAssertEqual(refused.headers["RateLimit-Remaining"], "0")
        XCTAssertEqual(refused.headers["RateLimit-Reset"], "5")
        XCTAssertEqual(refused.stubID, "limited")
        XCTAssertTrue(refused.text.contains("2 requests per 10 s"), refused.text)
        clock.advance(seconds: 4.5)
        XCTAssertEqual(engine.get("/r").status, 200, "the first slot freed exactly at 10 s")
        XCTAssertEqual(engine.get("/r").status, 429, "the second slot is still taken until 13 s")
        clock.advance(seconds: 3)
        XCTAssertEqual(engine.get("/r").status, 200)
    }

    // MARK: Header dialects (issue 29)

    func testGitHubDialectsEpochResetFollowsTheEngineClock() throws {
        // 2026-01-01T00:00:00Z = 1767225600 on the engine's clock, whatever the machine's says.
        let clock = ManualEngineClock(start: Date(timeIntervalSince1970: 1_767_225_600))
        let engine = try engine(
            #"{"limit":2,"window":60,"headers":"github","status":403,"json":{"message":"API rate limit exceeded"}}"#,
            clock: clock)
        let first = engine.get("/r")
        XCTAssertEqual(first.headers["X-RateLimit-Limit"], "2")
        XCTAssertEqual(first.headers["X-RateLimit-Remaining"], "1")
        XCTAssertEqual(first.headers["X-RateLimit-Used"], "1")
        XCTAssertEqual(first.headers["X-RateLimit-Reset"], "1767225660")
        XCTAssertEqual(first.headers["X-RateLimit-Resource"], "core")
        XCTAssertNil(first.headers["RateLimit-Limit"], "only the dialect's headers")
        clock.advance(seconds: 10.5)
        XCTAssertEqual(engine.get("/r").headers["X-RateLimit-Reset"], "1767225660", "the same window, the same epoch")
        clock.advance(seconds: 20)
        let refused = engine.get("/r")
        XCTAssertEqual(refused.status, 403)
        XCTAssertNil(refused.headers["Retry-After"], "GitHub's primary limit sends none")
        XCTAssertEqual(refused.headers["X-RateLimit-Remaining"], "0")
        XCTAssertEqual(refused.headers["X-RateLimit-Used"], "2")
        XCTAssertEqual(refused.headers["X-RateLimit-Reset"], "1767225660")
        XCTAssertEqual(refused.headers["Content-Type"], "application/json")
        XCTAssertEqual(refused.text, #"{"message":"API rate limit exceeded"}"#)
    }

    func testDraftAndXRateLimitDialectsAndA503Refusal() throws {
        let clock = ManualEngineClock()
        let draft = try engine(#"{"limit":3,"window":10,"headers":"ietf-draft","name":"burst"}"#, clock: clock)
        let answer = draft.get("/r")
        XCTAssertEqual(answer.headers["RateLimit-Policy"], #""burst";q=3;w=10"#)
        XCTAssertEqual(answer.headers["RateLimit"], #""burst";r=2;t=10"#)
        let other = ManualEngineClock()
        let plain = try engine(
            #"{"limit":1,"window":10,"headers":"x-ratelimit","status":503,"body":"busy"}"#, clock: other)
        XCTAssertEqual(plain.get("/r").headers["X-RateLimit-Reset"], "10")
        other.advance(seconds: 2.5)
        let refused = plain.get("/r")
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.headers["X-RateLimit-Reset"], "8")
        XCTAssertEqual(refused.headers["Retry-After"], "8")
        XCTAssertEqual(refused.text, "busy")
    }

    func testFractionalRetryAfter() throws {
        let clock = ManualEngineClock()
        let engine = try engine(#"{"limit":1,"window":1,"retryAfter":"fractional"}"#, clock: clock)
        XCTAssertEqual(engine.get("/r").status, 200)
        clock.advance(milliseconds: 763)
        XCTAssertEqual(engine.get("/r").headers["Retry-After"], "0.237")
        clock.advance(milliseconds: 236.5)
        XCTAssertEqual(engine.get("/r").headers["Retry-After"], "0.001", "rounded up, never down to zero")
    }

    func testHTTPDateRetryAfter() throws {
        // 2026-01-01T00:00:00Z is a Thursday.
        let clock = ManualEngineClock(start: Date(timeIntervalSince1970: 1_767_225_600))
        let engine = try engine(#"{"limit":1,"window":60,"retryAfter":"http-date"}"#, clock: clock)
        _ = engine.get("/r")
        clock.advance(seconds: 20.2)
        XCTAssertEqual(engine.get("/r").headers["Retry-After"], "Thu, 01 Jan 2026 00:01:00 GMT")
    }

    func testRefusedRequestsAreJournaledAndDoNotAdvanceTheSequence() throws {
        let clock = ManualEngineClock()
        let engine = try engine(
            #"{"limit":1,"window":1}"#, clock: clock, responses: #"[{"status":201},{"status":202}]"#)
        XCTAssertEqual(engine.get("/r").status, 201)
        XCTAssertEqual(engine.get("/r").status, 429)
        XCTAssertEqual(engine.get("/r").status, 429)
        clock.advance(seconds: 1)
        XCTAssertEqual(engine.get("/r").status, 202, "refusals did not use up responses")
        let entries = engine.journalObjects
        XCTAssertEqual(entries.map { $0["rateLimited"] as? Bool }, [false, true, true, false])
        XCTAssertEqual(entries.map { $0["status"] as? Int }, [201, 429, 429, 202])
        XCTAssertEqual(entries.map { $0["stub"] as? String }, ["limited", "limited", "limited", "limited"])
        XCTAssertTrue(entries[1]["responseIndex"] is NSNull)
    }

    func testRefusedRequestsDoNotMoveTheScenario() throws {
        let clock = ManualEngineClock()
        let engine = try makeEngine(
            #"{"stubs":[{"request":{"path":"/r"},"scenario":"s","setState":"Hit","rateLimit":{"limit":1,"window":5},"responses":[{}]}]}"#,
            clock: clock)
        _ = engine.get("/r")
        engine.scenarios.set("s", to: "Started")
        XCTAssertEqual(engine.get("/r").status, 429)
        XCTAssertEqual(engine.scenarioState("s"), "Started")
    }

    func testTokenBucketAllowsABurstThenRefillsEvenly() throws {
        let clock = ManualEngineClock()
        let engine = try engine(
            #"{"limit":4,"window":2,"algorithm":"token-bucket","retryAfter":"fractional"}"#, clock: clock)
        XCTAssertEqual((0..<4).map { _ in engine.get("/r").status }, [200, 200, 200, 200])
        let refused = engine.get("/r")
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(refused.headers["Retry-After"], "0.500", "one token every 0.5 s")
        clock.advance(seconds: 0.5)
        XCTAssertEqual(engine.get("/r").status, 200)
        XCTAssertEqual(engine.get("/r").status, 429)
        clock.advance(seconds: 2)
        let refilled = engine.get("/r")
        XCTAssertEqual(refilled.status, 200)
        XCTAssertEqual(refilled.headers["RateLimit-Remaining"], "3")
    }

    func testResetClearsRateLimits() throws {
        let clock = ManualEngineClock()
        let engine = try engine(#"{"limit":1,"window":100}"#, clock: clock)
        _ = engine.get("/r")
        XCTAssertEqual(engine.get("/r").status, 429)
        engine.reset()
        XCTAssertEqual(engine.get("/r").status, 200)
    }
}
