import RESTNetworking
import XCTest

final class RetryAfterTests: XCTestCase {
    /// 2026-11-22T02:00:00Z
    private let now = Date(timeIntervalSince1970: 1_795_312_800)

    func testIntegerDeltaSeconds() {
        XCTAssertEqual(RetryAfter.seconds(from: "120", now: now), 120)
        XCTAssertEqual(RetryAfter.seconds(from: "0", now: now), 0)
        XCTAssertEqual(RetryAfter.seconds(from: "  7 ", now: now), 7)
    }

    func testFractionalDeltaSeconds() {
        XCTAssertEqual(RetryAfter.seconds(from: "1.5", now: now), 1.5)
        XCTAssertEqual(RetryAfter.seconds(from: "0.237", now: now)!, 0.237, accuracy: 1e-12)
    }

    func testGarbageMeansAbsent() {
        for value in [
            "", " ", "-1", "+5", "1e3", "inf", "nan", "0x10", "1.", ".5", "1.2.3", "soon",
            "Sun, 32 Nov 2026 08:49:37 GMT", "Sun, 06 Nov 2026 25:00:00 GMT",
            "Sun, 06 Nov 2026 08:49:37 UTC", "Sun, 06 Foo 2026 08:49:37 GMT",
            "Sun, 29 Feb 2026 08:49:37 GMT", "Funday, 06-Nov-26 08:49:37 GMT",
        ] {
            XCTAssertNil(RetryAfter.seconds(from: value, now: now), "`\(value)` should read as absent")
        }
    }

    func testIMFFixdateRelativeToResponseDate() throws {
        let responseDate = try XCTUnwrap(HTTPDate.parse("Sun, 22 Nov 2026 01:59:58 GMT"))
        // The local clock (`now`) is 2 s ahead of the server: the wait is measured on the server's.
        XCTAssertEqual(
            RetryAfter.seconds(from: "Sun, 22 Nov 2026 02:00:03 GMT", responseDate: responseDate, now: now), 5)
    }

    func testIMFFixdateRelativeToNowWithoutDateHeader() {
        XCTAssertEqual(RetryAfter.seconds(from: "Sun, 22 Nov 2026 02:00:03 GMT", now: now), 3)
    }

    func testDateInThePastMeansRetryNow() {
        XCTAssertEqual(RetryAfter.seconds(from: "Sat, 21 Nov 2026 23:00:00 GMT", now: now), 0)
    }

    func testRFC850Form() {
        XCTAssertEqual(RetryAfter.seconds(from: "Sunday, 22-Nov-26 02:00:10 GMT", now: now), 10)
    }

    func testRFC850TwoDigitYearMoreThan50YearsAheadIsLastCentury() throws {
        // Read in 2026, "94" is 1994, not 2094; "76" is 2076 (exactly 50 years ahead).
        let old = try XCTUnwrap(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now))
        XCTAssertEqual(old.timeIntervalSince1970, 784_111_777)
        let ahead = try XCTUnwrap(HTTPDate.parse("Wednesday, 01-Jan-76 00:00:00 GMT", now: now))
        XCTAssertEqual(ahead.timeIntervalSince1970, 3_345_062_400)
    }

    func testAsctimeForm() {
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994")?.timeIntervalSince1970, 784_111_777)
        XCTAssertEqual(RetryAfter.seconds(from: "Sun Nov 22 02:00:04 2026", now: now), 4)
    }

    func testAllThreeFormsAgree() {
        let forms = ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"]
        XCTAssertEqual(Set(forms.compactMap { HTTPDate.parse($0, now: now) }).count, 1)
        XCTAssertEqual(forms.compactMap { HTTPDate.parse($0, now: now) }.count, 3)
    }

    func testLeapDayAndLeapSecond() {
        XCTAssertNotNil(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT"))
        XCTAssertNotNil(HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT"))
    }

    func testResponseRetryAfterUsesItsDateHeader() throws {
        let response = try XCTUnwrap(
            HTTPURLResponse(
                url: URL(string: "http://127.0.0.1/")!, statusCode: 429, httpVersion: nil,
                headerFields: ["Retry-After": "Sun, 22 Nov 2026 02:00:02 GMT", "Date": "Sun, 22 Nov 2026 02:00:00 GMT"])
        )
        // Local clock an hour off: the answer still comes from the two server dates.
        XCTAssertEqual(response.retryAfterSeconds(now: now.addingTimeInterval(3_600)), 2)
    }

    func testResponseWithUnreadableDateHeaderFallsBackToNow() throws {
        let response = try XCTUnwrap(
            HTTPURLResponse(
                url: URL(string: "http://127.0.0.1/")!, statusCode: 429, httpVersion: nil,
                headerFields: ["Retry-After": "Sun, 22 Nov 2026 02:00:02 GMT", "Date": "yesterday"]))
        XCTAssertEqual(response.retryAfterSeconds(now: now), 2)
    }
}
