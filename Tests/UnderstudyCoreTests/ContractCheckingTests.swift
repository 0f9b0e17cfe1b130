import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The engine's side of serve-time contract checking (the `ContractChecking` seam behind
/// `serve --openapi`): what it journals, sends and refuses for what a checker reports. The OpenAPI
/// checker itself is driven from outside, against a real document, by Tests/BlackBox/test_openapi_serve.py.
final class ContractCheckingTests: XCTestCase {
    /// A contract of two rules: a request must not carry `X-Bad`, an answer must not be a 418.
    final class RuleChecker: ContractChecking {
        let refusesViolations: Bool
        var requestsSeen = 0

        init(refuses: Bool) { refusesViolations = refuses }

        func violations(in request: HTTPRequest) -> [ContractViolation] {
            requestsSeen += 1
            guard let bad = request.headers["X-Bad"] else { return [] }
            return [
                ContractViolation(
                    location: "request.header.X-Bad", pointer: "spec.yaml#/x", message: "`\(bad)`: not allowed")
            ]
        }

        func violations(in response: HTTPResponse, answering request: HTTPRequest) -> [ContractViolation] {
            response.status == 418
                ? [
                    ContractViolation(
                        location: "response.status", pointer: "spec.yaml#/r", message: "status 418 is not declared")
                ]
                : []
        }
    }

    private let stubs = """
        {"stubs": [
          {"id": "seq", "request": {"path": "/seq"}, "responses": [{"body": "first"}, {"body": "second"}]},
          {"id": "teapot", "request": {"path": "/teapot"}, "responses": [{"status": 418, "body": "tea"}]},
          {"id": "teapot-on-purpose", "request": {"path": "/on-purpose"}, "openapi": {"skip": "tested off-spec"},
           "responses": [{"status": 418, "body": "tea"}]}
        ]}
        """

    private func engine(_ checker: RuleChecker?) throws -> StubEngine {
        let set = try StubLoader.parse(bytes: Array(stubs.utf8), file: "test.json", root: nil)
        var configuration = EngineConfiguration(clock: ManualEngineClock())
        configuration.contract = checker
        return StubEngine(stubs: set, configuration: configuration)
    }

    func testWithoutACheckerNothingIsAddedToAnswersOrEntries() throws {
        let engine = try engine(nil)
        let response = engine.get("/teapot", headers: ["X-Bad": "1"])
        XCTAssertEqual(response.status, 418)
        XCTAssertNil(response.headers[StubEngine.contractViolationHeader])
        XCTAssertNil(engine.journalObjects[0]["openapiViolations"])
    }

    func testWarnSendsTheAnswerWithAHeaderAndJournalsEveryViolation() throws {
        let checker = RuleChecker(refuses: false)
        let engine = try engine(checker)
        let clean = engine.get("/seq")
        XCTAssertEqual(clean.text, "first")
        XCTAssertNil(clean.headers[StubEngine.contractViolationHeader])
        XCTAssertNil(engine.journalObjects[0]["openapiViolations"], "a clean request's entry is as without checking")

        let response = engine.get("/teapot", headers: ["X-Bad": "é"])
        XCTAssertEqual(response.status, 418, "warn answers as the stub says")
        XCTAssertEqual(
            response.headers[StubEngine.contractViolationHeader],
            "2 violations; first: request.header.X-Bad: `?`: not allowed (spec spec.yaml#/x)",
            "the count and the first, printable ASCII only")
        let entry = engine.journalObjects[1]
        XCTAssertEqual(entry["outcome"] as? String, "answered")
        let violations = try XCTUnwrap(entry["openapiViolations"] as? [[String: String]])
        XCTAssertEqual(
            violations,
            [
                ["where": "request.header.X-Bad", "pointer": "spec.yaml#/x", "message": "`é`: not allowed"],
                ["where": "response.status", "pointer": "spec.yaml#/r", "message": "status 418 is not declared"],
            ])
        XCTAssertEqual(checker.requestsSeen, 2)
    }

    func testFailRefusesARequestBeforeAnyStubMoves() throws {
        let engine = try engine(RuleChecker(refuses: true))
        let refused = engine.get("/seq", headers: ["X-Bad": "1"])
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue(refused.text.contains("the request does not match the OpenAPI document"), refused.text)
        XCTAssertTrue(refused.text.contains("request.header.X-Bad: `1`: not allowed (spec spec.yaml#/x)"), refused.text)
        let entry = engine.journalObjects[0]
        XCTAssertEqual(entry["outcome"] as? String, "refused")
        XCTAssertEqual(entry["matched"] as? Bool, false)
        XCTAssertEqual(entry["status"] as? Int, 400)
        XCTAssertTrue((entry["reason"] as? String)?.contains("request.header.X-Bad") == true)
        XCTAssertEqual(engine.journalEntries[0].outcome, .refused, "the in-memory entry agrees with its line")
        XCTAssertEqual(engine.get("/seq").text, "first", "the refused request moved no sequence")
    }

    func testFailReplacesAStubAnswerThatBreaksTheContractWithA500() throws {
        let engine = try engine(RuleChecker(refuses: true))
        let response = engine.get("/teapot")
        XCTAssertEqual(response.status, 500)
        XCTAssertTrue(
            response.text.contains("stub `teapot`'s answer does not match the OpenAPI document"), response.text)
        let entry = engine.journalObjects[0]
        XCTAssertEqual(entry["outcome"] as? String, "refused")
        XCTAssertEqual(entry["stub"] as? String, "teapot")
        XCTAssertEqual(entry["status"] as? Int, 500)
    }

    func testAStubMarkedOpenAPISkipAnswersAsItSaysButItsRequestIsStillChecked() throws {
        let engine = try engine(RuleChecker(refuses: true))
        let answer = engine.get("/on-purpose")
        XCTAssertEqual(answer.status, 418, "a skipped stub's off-spec answer is not refused")
        XCTAssertEqual(engine.journalObjects[0]["outcome"] as? String, "answered")
        XCTAssertNil(engine.journalObjects[0]["openapiViolations"])
        XCTAssertEqual(engine.get("/on-purpose", headers: ["X-Bad": "1"]).status, 400, "its request still is")
    }
}
