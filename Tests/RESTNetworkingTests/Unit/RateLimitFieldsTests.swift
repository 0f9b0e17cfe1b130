import RESTNetworking
import XCTest

final class RateLimitFieldsTests: XCTestCase {
    private func fields(_ headers: [String: String], status: Int = 200) -> RateLimitFields {
        let url = URL(string: "http://127.0.0.1/unit")!
        return RateLimitFields(
            response: HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!)
    }

    func testUnderstudysFields() {
        let read = fields(["RateLimit-Limit": "10", "RateLimit-Remaining": "3", "RateLimit-Reset": "1"])
        XCTAssertEqual(read, RateLimitFields(limit: 10, remaining: 3, reset: 1))
        XCTAssertFalse(read.isEmpty)
    }

    func testDraftStructuredFieldsWithThePolicysQuota() {
        let read = fields(["RateLimit-Policy": #""burst";q=100;w=60"#, "RateLimit": #""burst";r=7;t=30"#])
        XCTAssertEqual(read, RateLimitFields(limit: 100, remaining: 7, reset: 30, policy: "burst"))
    }

    func testTheBindingPolicyWinsAmongSeveral() {
        let read = fields([
            "RateLimit-Policy": #""burst";q=10;w=1, "daily";q=1000;w=86400"#,
            "RateLimit": #""burst";r=5;t=1, "daily";r=0;t=3600"#,
        ])
        XCTAssertEqual(read, RateLimitFields(limit: 1000, remaining: 0, reset: 3600, policy: "daily"))
        let tie = fields(["RateLimit": #""a";r=0;t=2, "b";r=0;t=9"#])
        XCTAssertEqual(tie.reset, 9, "of equally spent policies, the latest reset binds")
    }

    func testBothFormsTogetherTakeTheMoreRestrictive() {
        let read = fields(["RateLimit-Remaining": "4", "RateLimit-Reset": "1", "RateLimit": #""p";r=2;t=5"#])
        XCTAssertEqual(read.remaining, 2)
        XCTAssertEqual(read.reset, 5)
    }

    func testTheOlderDraftsDictionaryForm() {
        XCTAssertEqual(
            fields(["RateLimit": "limit=10, remaining=4, reset=2"]), RateLimitFields(limit: 10, remaining: 4, reset: 2))
    }

    func testDecimalResetAndNegativeRemaining() {
        let read = fields(["RateLimit": #""p";r=-3;t=0.25"#])
        XCTAssertEqual(read.remaining, 0)
        XCTAssertEqual(read.reset, 0.25)
    }

    func testRetryAfterCountsOnlyOn429And503And403() {
        XCTAssertEqual(fields(["Retry-After": "2"], status: 429).retryAfter, 2)
        XCTAssertEqual(fields(["Retry-After": "0.5"], status: 503).retryAfter, 0.5)
        XCTAssertEqual(fields(["Retry-After": "60"], status: 403).retryAfter, 60, "GitHub's secondary rate limit")
        XCTAssertNil(fields(["Retry-After": "2"], status: 301).retryAfter)
    }

    func testNothingUsableMeansEmpty() {
        XCTAssertTrue(fields([:]).isEmpty)
        XCTAssertTrue(fields(["RateLimit": "not a (structured field"]).isEmpty)
        XCTAssertTrue(fields(["RateLimit": #""p";t=3"#]).isEmpty, "a policy without `r` says nothing about the budget")
        XCTAssertTrue(fields(["RateLimit-Remaining": "many"]).isEmpty)
    }

    // MARK: X-RateLimit-*

    func testGitHubsFieldsWithTheResetAsAnEpochMeasuredFromDate() {
        // Date: 2026-01-01T00:00:00Z = 1767225600; the reset 42 s later.
        let read = fields(
            [
                "X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Used": "60",
                "X-RateLimit-Reset": "1767225642", "X-RateLimit-Resource": "core",
                "Date": "Thu, 01 Jan 2026 00:00:00 GMT",
            ], status: 403)
        XCTAssertEqual(read, RateLimitFields(limit: 60, remaining: 0, reset: 42, policy: "core"))
    }

    func testAnEpochWithoutDateIsMeasuredFromTheLocalClockAndAPastOneIsZero() {
        let now = Date()
        let url = URL(string: "http://127.0.0.1/unit")!
        let ahead = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: [
                "X-RateLimit-Remaining": "1", "X-RateLimit-Reset": String(Int(now.timeIntervalSince1970) + 90),
            ])!
        XCTAssertEqual(try XCTUnwrap(RateLimitFields(response: ahead, now: now).reset), 90, accuracy: 1)
        XCTAssertEqual(fields(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1000000000"]).reset, 0)
    }

    func testSmallResetsAreSecondsAndResetAfterIsPreferred() {
        XCTAssertEqual(
            fields(["X-RateLimit-Remaining": "3", "X-RateLimit-Reset": "30"]), RateLimitFields(remaining: 3, reset: 30))
        XCTAssertEqual(
            fields(["X-RateLimit-Remaining": "3", "X-RateLimit-Reset": "999999999"]).reset, 999_999_999,
            "just under the epoch threshold: still seconds")
        // Discord: the reset as an epoch with a fraction, and Reset-After in seconds.
        XCTAssertEqual(
            fields([
                "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1470173023.123",
                "X-RateLimit-Reset-After": "1.234",
            ]).reset, 1.234)
    }

    func testTheMostRestrictiveOfIETFAndXRateLimitWins() {
        let read = fields([
            "RateLimit-Remaining": "5", "RateLimit-Reset": "1", "X-RateLimit-Remaining": "2", "X-RateLimit-Reset": "7",
        ])
        XCTAssertEqual(read.remaining, 2)
        XCTAssertEqual(read.reset, 7)
    }
}
