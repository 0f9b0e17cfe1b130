import Foundation
import Testing
import UnderstudyTesting

/// `assertRetryDiscipline` against a real daemon on a frozen clock, one broken rule at a time: the
/// journal's verdicts and gaps are exact because only `advance` moves the world's time.
@Suite(
    "UnderstudyTesting: retry discipline",
    .understudy(
        Stub.post("/rd/create").respond(.status(503).retryAfter(1), .status(503), .status(201)),
        Stub.get("/rd/flaky").respond(.status(503), .status(503), .status(503), .status(200)),
        clock: .frozen(at: Date(timeIntervalSince1970: 1_893_456_000))
    ))
struct RetryDisciplineTests {
    var understudy: Understudy { Understudy.current! }

    func send(_ method: String, _ path: String, body: String? = nil, key: String? = nil) async throws -> Int {
        try await HTTP.send(
            method, path, to: understudy, body: body, headers: key.map { ["Idempotency-Key": $0] } ?? [:]
        ).status
    }

    @Test func aChangedKeyAndBodyAreReportedAtTheAttemptThatChangedThem() async throws {
        #expect(try await send("POST", "/rd/create", body: "amount=1", key: "k1") == 503)
        try await understudy.clock.advance(by: .seconds(1))
        #expect(try await send("POST", "/rd/create", body: "amount=2", key: "k2") == 503)
        try await understudy.clock.advance(by: .seconds(1))
        #expect(try await send("POST", "/rd/create", body: "amount=1", key: "k1") == 201)
        let report = try await understudy.retryDiscipline(RequestFilter(path: "/rd/create"))
        #expect(report.problems.map(\.rule) == [.changedKey, .changedBody])
        #expect(report.problems.map(\.seq) == [2, 2])
        #expect(report.problems.first?.detail == "Idempotency-Key k2, the first attempt sent k1")
        await withKnownIssue {
            await understudy.assertRetryDiscipline(RequestFilter(path: "/rd/create"))
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            return text.contains("seq 2: changed idempotency key") && text.contains("seq 2: changed body")
                && text.contains("waited 1000 of 1000 ms") && text.contains("k2")
        }
    }

    @Test func aShrinkingBackoffIsReportedAndSlackForgivesIt() async throws {
        #expect(try await send("GET", "/rd/flaky") == 503)
        try await understudy.clock.advance(by: .milliseconds(400))
        #expect(try await send("GET", "/rd/flaky") == 503)
        try await understudy.clock.advance(by: .milliseconds(100))
        #expect(try await send("GET", "/rd/flaky") == 503)
        try await understudy.clock.advance(by: .milliseconds(800))
        #expect(try await send("GET", "/rd/flaky") == 200)
        let report = try await understudy.retryDiscipline(RequestFilter(path: "/rd/flaky"))
        #expect(report.problems.map(\.rule) == [.shrinkingBackoff])
        #expect(report.problems.first?.detail == "waited 100 ms, after a backoff of 400 ms")
        let forgiving = try await understudy.retryDiscipline(RequestFilter(path: "/rd/flaky"), backoffSlackMs: 300)
        #expect(forgiving.problems.isEmpty, "\(forgiving)")
    }

    @Test func aWellBehavedClientPasses() async throws {
        #expect(try await send("POST", "/rd/create", body: "amount=1", key: "k1") == 503)
        try await understudy.clock.advance(by: .milliseconds(1500))
        #expect(try await send("POST", "/rd/create", body: "amount=1", key: "k1") == 503)
        try await understudy.clock.advance(by: .milliseconds(1500))
        #expect(try await send("POST", "/rd/create", body: "amount=1", key: "k1") == 201)
        let entries = try await understudy.admin.requests(RequestFilter(path: "/rd/create"))
        #expect(entries.map { $0.retry?.verdict } == [nil, "on-time", nil])
        await understudy.assertRetryDiscipline(RequestFilter(path: "/rd/create"))
    }
}
