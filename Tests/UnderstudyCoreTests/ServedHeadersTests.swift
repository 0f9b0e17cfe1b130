import XCTest
import UnderstudyRegex
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// `ServedHeaders` (what `check --openapi` credits a stub with) says what the engine really sends,
/// and `CompiledRegex.sample` (what `generate --openapi` writes for a `pattern`) matches its pattern.
final class ServedHeadersTests: XCTestCase {
    private func names(_ headers: HTTPHeaders) -> [String] { headers.map { $0.name.lowercased() }.sorted() }

    func testTheAnswerAndTheRefusalCarryTheHeadersTheEngineSends() throws {
        for dialect in ["ietf", "ietf-draft", "github", "x-ratelimit", "none"] {
            for retryAfter in ["seconds", "fractional", "http-date", "none"] {
                let clock = ManualEngineClock(start: Date(timeIntervalSince1970: 1_767_225_600))
                let stubs =
                    #"{"stubs":[{"id":"limited","request":{"path":"/r"},"rateLimit":{"limit":1,"window":60,"headers":""#
                    + dialect + #"","retryAfter":""# + retryAfter
                    + #"","json":{"error":"slow"}},"responses":[{"status":200,"json":{"a":1},"retryAfter":3}]}]}"#
                let engine = try makeEngine(stubs, clock: clock)
                let stub = engine.stubs[0]
                let served = engine.get("/r")
                let refused = engine.get("/r")
                XCTAssertEqual(refused.status, 429)
                let answer = ServedHeaders.answer(of: stub, response: 0, now: clock.now)
                let refusal = try XCTUnwrap(ServedHeaders.refusal(of: stub, now: clock.now))
                // The engine's fields plus the transport's `Date` and `Content-Length`.
                XCTAssertEqual(
                    names(answer), (names(served.headers) + ["content-length", "date"]).sorted(),
                    "\(dialect) \(retryAfter)")
                XCTAssertEqual(
                    names(refusal.headers), (names(refused.headers) + ["content-length", "date"]).sorted(),
                    "\(dialect) \(retryAfter)")
                XCTAssertEqual(answer["Retry-After"], "3")
                XCTAssertEqual(refusal.status, refused.status)
                XCTAssertEqual(refusal.body, refused.body)
            }
        }
    }

    func testNoRefusalWithoutARateLimitAndNoLengthWhereTheTransportSendsNone() throws {
        let engine = try makeEngine(#"{"stubs":[{"request":{"path":"/n"},"responses":[{"status":204}]}]}"#)
        XCTAssertNil(ServedHeaders.refusal(of: engine.stubs[0]))
        XCTAssertEqual(names(ServedHeaders.answer(of: engine.stubs[0], response: 0)), ["date"])
    }

    func testSamplesMatchTheirPatternsAndReachTheMinimumLength() throws {
        let cases: [(String, Int, String)] = [
            ("^[A-Z]{3}-[0-9]{4}$", 0, "AAA-0000"),
            ("^pet_[a-z0-9]{6}$", 0, "pet_aaaaaa"),
            ("^[a-z]+-[0-9]+$", 6, "aaaa-0"),
            ("^(ab|cd)[0-9]{2,3}x?$", 0, "ab00"),
            (#"\d{2}\.\d+"#, 0, "00.0"),
            ("[^a-z]", 0, "A"),
            ("(?i)abc", 0, "ABC"),
        ]
        for (pattern, minimum, expected) in cases {
            let regex = try CompiledRegex(pattern)
            let sample = try XCTUnwrap(regex.sample(minimumLength: minimum), pattern)
            XCTAssertEqual(sample, expected, pattern)
            XCTAssertTrue(regex.matchesWhole(sample), pattern)
            XCTAssertGreaterThanOrEqual(sample.count, minimum, pattern)
        }
        XCTAssertEqual(
            try CompiledRegex("^[A-Z]{3}$").sample(minimumLength: 10), "AAA", "bounded: as long as it can be")
        XCTAssertNil(try CompiledRegex(#"a\bb"#).sample(), "nothing matches it whole")
    }
}
