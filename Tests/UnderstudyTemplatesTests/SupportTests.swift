import UnderstudyJSON
import XCTest

@testable import UnderstudyTemplates

/// Hand-written formatting and helpers the engine and templates rely on.
final class SupportTests: XCTestCase {
    func testISO8601WithMilliseconds() {
        XCTAssertEqual(TimeFormatting.iso8601Milliseconds(0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(TimeFormatting.iso8601Milliseconds(951_782_400.5), "2000-02-29T00:00:00.500Z")
        XCTAssertEqual(TimeFormatting.iso8601Milliseconds(1_795_314_878.123_9), "2026-11-22T02:34:38.123Z")
        XCTAssertEqual(TimeFormatting.iso8601Milliseconds(4_102_444_799.999), "2099-12-31T23:59:59.999Z")
    }

    func testAddingMonthsKeepsTheDayOrTakesTheMonthsLast() {
        func shifted(_ months: Int, _ seconds: Double) -> String {
            TimeFormatting.iso8601Milliseconds(TimeFormatting.addingMonths(months, to: seconds))
        }
        let endOfJanuary = 1_769_863_845.25  // 2026-01-31T12:50:45.250Z
        XCTAssertEqual(shifted(1, endOfJanuary), "2026-02-28T12:50:45.250Z")
        XCTAssertEqual(shifted(25, endOfJanuary), "2028-02-29T12:50:45.250Z")
        XCTAssertEqual(shifted(-2, endOfJanuary), "2025-11-30T12:50:45.250Z")
        XCTAssertEqual(shifted(96, endOfJanuary), "2034-01-31T12:50:45.250Z")
        XCTAssertEqual(shifted(-13, 0), "1968-12-01T00:00:00.000Z")
        XCTAssertEqual(shifted(0, endOfJanuary), "2026-01-31T12:50:45.250Z")
    }

    func testIMFFixdate() {
        XCTAssertEqual(TimeFormatting.imfFixdate(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(TimeFormatting.imfFixdate(0), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(TimeFormatting.imfFixdate(951_868_800), "Wed, 01 Mar 2000 00:00:00 GMT")
    }

    func testFractionalSecondsRoundUp() {
        XCTAssertEqual(TimeFormatting.fractionalSeconds(0.2361), "0.237")
        XCTAssertEqual(TimeFormatting.fractionalSeconds(2), "2.000")
        XCTAssertEqual(TimeFormatting.milliseconds(fromNanoseconds: 12_345_678), "12.345")
    }

    func testEditDistanceSuggestions() {
        XCTAssertEqual(EditDistance.distance("staus", "status"), 1)
        XCTAssertEqual(EditDistance.distance("stauts", "status"), 1, "a transposition counts once")
        XCTAssertEqual(EditDistance.closest(to: "Status", among: ["status", "headers"]), "status")
        XCTAssertEqual(EditDistance.closest(to: "bdy", among: ["body", "json"]), "body")
        XCTAssertNil(
            EditDistance.closest(to: "x", among: ["id"]), "a one-letter key is not corrected into an unrelated one")
        XCTAssertNil(EditDistance.closest(to: "completely", among: ["status"]))
    }

    func testBoundedDistanceCapsAndSkipsFarApartLengths() {
        XCTAssertEqual(EditDistance.boundedDistance("/postz", "/posts", limit: 10), 1)
        XCTAssertEqual(EditDistance.boundedDistance("/a", "/a", limit: 10), 0)
        XCTAssertEqual(EditDistance.boundedDistance("", "/abc", limit: 10), 4)
        XCTAssertEqual(EditDistance.boundedDistance("/items/12", "/users/99/orders", limit: 5), 5)
        XCTAssertEqual(EditDistance.boundedDistance("/x", String(repeating: "y", count: 40), limit: 10), 10)
    }

    func testBandedBoundedDistanceAgreesWithTheFullTable() {
        func full(_ a: [UInt8], _ b: [UInt8]) -> Int {
            var previous = Array(0...b.count)
            for i in 1...max(1, a.count) where !a.isEmpty {
                var current = [i] + Array(repeating: 0, count: b.count)
                for j in stride(from: 1, through: b.count, by: 1) {
                    current[j] = min(
                        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                }
                previous = current
            }
            return previous[b.count]
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let a = String(
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in "abc/".randomElement(using: &generator)! })
            let b = String(
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in "abc/".randomElement(using: &generator)! })
            let exact = full(Array(a.utf8), Array(b.utf8))
            Array(a.utf8).withUnsafeBufferPointer { x in
                Array(b.utf8).withUnsafeBufferPointer { y in
                    XCTAssertLessThanOrEqual(EditDistance.bagDistance(x, y), exact, "\(a) \(b): a lower bound")
                }
            }
            for limit in 1...14 {
                XCTAssertEqual(
                    EditDistance.boundedDistance(a, b, limit: limit), min(limit, exact), "\(a) \(b) limit \(limit)")
            }
            let longest = max(a.utf8.count, b.utf8.count)
            let normalized = longest == 0 ? 0 : Double(exact) / Double(longest)
            for bound in [0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 2.0] {
                let result = EditDistance.normalizedDistance(a, b, below: bound)
                XCTAssertEqual(result, normalized < bound ? normalized : nil, "\(a) \(b) below \(bound)")
                // With a cap, strings that many edits apart or more count as unrelated (1).
                let capped = exact < 3 ? normalized : 1
                XCTAssertEqual(
                    EditDistance.normalizedDistance(a, b, below: bound, maximumEdits: 3), capped < bound ? capped : nil,
                    "\(a) \(b) below \(bound), capped")
            }
        }
        XCTAssertEqual(EditDistance.boundedDistance("ABC", "abd", limit: 5, ignoringASCIICase: true), 1)
    }

    func testPercentDecodingAndQueryPairs() {
        XCTAssertEqual(PercentDecoding.decodePath("/a%20b%zz%"), "/a b%zz%")
        XCTAssertEqual(
            PercentDecoding.queryPairs("a=1&b=x+y%21&c&&d=").map { "\($0.name)=\($0.value)" },
            ["a=1", "b=x y!", "c=", "d="])
        XCTAssertTrue(PercentDecoding.queryPairs(nil).isEmpty)
    }

    func testJSONPathQuotesOnlyWhenNeeded() {
        XCTAssertEqual(JSONPath.member("", "stubs"), "stubs")
        XCTAssertEqual(JSONPath.member("headers", "Retry-After"), "headers.Retry-After")
        XCTAssertEqual(JSONPath.member("headers", "Bad \"Name\""), #"headers["Bad \"Name\""]"#)
        XCTAssertEqual(JSONPath.element("stubs", 2), "stubs[2]")
    }
}
