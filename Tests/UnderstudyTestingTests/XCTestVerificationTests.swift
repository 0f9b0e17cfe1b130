import Foundation
import UnderstudyTesting
import XCTest

/// The verification helpers under XCTest: they pass, and they fail through XCTest at the
/// caller's line (captured here, so the failing half passes).
final class XCTestVerificationTests: XCTestCase {
    var understudy: Understudy!
    /// Failures recorded while `capturing` is set, instead of failing the test.
    var captured: [(description: String, line: Int)] = []
    var capturing = false

    override func setUp() async throws {
        understudy = try await understudySession()
        try await understudy.install(Stub.get("/x/a").respond(.status(200)))
    }

    #if !canImport(Darwin)
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if capturing {
            captured.append((description, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
    #endif

    func testCountAndOrderPassUnderXCTest() async throws {
        try await HTTP.send("GET", "/x/a", to: understudy)
        await understudy.verify(.once, .get("/x/a"))
        await understudy.verifyOrder(.get("/x/a"))
        await understudy.verifyNoRequests(path: "/x/a", since: 1, within: .milliseconds(50))
    }

    #if !canImport(Darwin)
    func testAFailureIsReportedAtTheCallersLine() async throws {
        capturing = true
        let line = #line + 1
        await understudy.verify(.exactly(2), .get("/x/a"))
        capturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        XCTAssertTrue(
            captured.first?.description.contains("expected exactly 2 request(s) matching GET /x/a, found 0") == true,
            captured.first?.description ?? "")
    }
    #endif
}
