import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The files in `stubs/` are documentation users run; they must load and behave as described.
final class ExampleStubsTests: XCTestCase {
    private var stubsDirectory: String { repositoryRoot + "/stubs" }

    func testEveryTopLevelExampleFileLoadsOnItsOwn() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: stubsDirectory).filter { $0.hasSuffix(".json") }
            .sorted()
        XCTAssertGreaterThanOrEqual(files.count, 10)
        for file in files {
            XCTAssertNoThrow(try StubLoader.load(paths: [stubsDirectory + "/" + file]), file)
        }
    }

    func testTheWholeDirectoryLoadsWithUniqueIDs() throws {
        let set = try StubLoader.load(paths: [stubsDirectory])
        XCTAssertEqual(Set(set.stubs.map(\.id)).count, set.count)
    }

    func testExamplesBehaveAsDocumented() throws {
        let clock = ManualEngineClock()
        let set = try StubLoader.load(paths: [stubsDirectory])
        let engine = StubEngine(stubs: set, configuration: EngineConfiguration(clock: clock))

        let limited = engine.get("/examples/retry-after")
        XCTAssertEqual(limited.status, 429)
        XCTAssertEqual(limited.headers["Retry-After"], "1")
        XCTAssertEqual(engine.get("/examples/retry-after").status, 200)

        XCTAssertEqual((0..<3).map { _ in engine.get("/examples/exhaust").status }, [429, 429, 404])

        XCTAssertEqual(engine.get("/examples/profile").status, 401)
        XCTAssertEqual(engine.send("POST", "/examples/token").status, 200)
        XCTAssertEqual(engine.get("/examples/profile", headers: ["Authorization": "Bearer fresh-token"]).status, 200)

        XCTAssertEqual((0..<3).map { _ in engine.get("/examples/rate-limited").status }, [200, 200, 429])

        let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": "order-7"]
        let charge = "amount=2000&currency=eur&metadata%5Border%5D=7"
        XCTAssertEqual(engine.send("POST", "/examples/charges", body: charge).status, 400, "the key is required")
        let attempts = (0..<4).map { _ in engine.send("POST", "/examples/charges", headers: form, body: charge) }
        XCTAssertEqual(attempts.map(\.status), [200, 503, 201, 201], "the reset is journaled, then 503, then charged")
        XCTAssertEqual(attempts[2].jsonObject["amount"] as? Int, 2000)
        XCTAssertEqual(attempts[2].jsonObject["metadata"] as? [String: String], ["order": "7"])
        XCTAssertEqual(attempts[3].body, attempts[2].body, "charged once: the retry replays the charge")
        XCTAssertEqual(attempts[3].headers["Idempotent-Replayed"], "true")
        clock.advance(milliseconds: 400)
        XCTAssertEqual((0..<3).map { _ in engine.get("/examples/rate-limited-fractional").status }, [200, 200, 429])
        XCTAssertEqual(engine.get("/examples/rate-limited-fractional").headers["Retry-After"], "1.000")

        let maintenance = engine.get("/examples/maintenance")
        XCTAssertEqual(maintenance.status, 503)
        XCTAssertTrue(maintenance.headers["Retry-After"]?.hasSuffix(" GMT") ?? false)
        XCTAssertEqual(engine.get("/examples/maintenance").status, 200)

        XCTAssertEqual(engine.get("/examples/slow").delayMs, 300)
        for fault in Fault.allCases {
            XCTAssertEqual(engine.get("/examples/fault/\(fault.rawValue)").fault, fault)
        }
        // fault's object form: the named fault of the same shape, with its parameters.
        let refused = engine.get("/examples/fault/rst-stream-refused-after-headers")
        XCTAssertEqual(refused.fault, .rstStreamAfterHeaders)
        XCTAssertEqual(refused.faultParameters, FaultParameters(errorCode: .refusedStream))
        let goaway = engine.get("/examples/fault/goaway-this")
        XCTAssertEqual(goaway.fault, .goaway)
        XCTAssertEqual(goaway.faultParameters, FaultParameters(errorCode: .noError, lastStream: .this))
    }
}
