import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// WireMock-style scenarios across stubs.
final class ScenarioTests: XCTestCase {
    private let tokenRefresh = #"""
        {"stubs":[
          {"id":"profile-401","request":{"method":"GET","path":"/profile"},"scenario":"auth","whenState":"Started",
           "responses":[{"status":401}]},
          {"id":"token","request":{"method":"POST","path":"/token"},"scenario":"auth","setState":"Refreshed",
           "responses":[{"status":200,"json":{"token":"t2"}}]},
          {"id":"profile-200","request":{"method":"GET","path":"/profile"},"scenario":"auth","whenState":"Refreshed",
           "responses":[{"status":200}]}
        ]}
        """#

    func test401UntilTheTokenIsRefreshedThen200() throws {
        let engine = try makeEngine(tokenRefresh)
        XCTAssertEqual(engine.get("/profile").status, 401)
        XCTAssertEqual(engine.get("/profile").status, 401)
        XCTAssertEqual(engine.scenarioState("auth"), "Started")
        XCTAssertEqual(engine.send("POST", "/token").status, 200)
        XCTAssertEqual(engine.scenarioState("auth"), "Refreshed")
        XCTAssertEqual(engine.get("/profile").stubID, "profile-200")
        let moves = engine.journalObjects.map { $0["scenario"] as? [String: String] }
        XCTAssertEqual(moves[0], nil)
        XCTAssertEqual(moves[2], ["name": "auth", "from": "Started", "to": "Refreshed"])
        XCTAssertEqual(moves[3], nil)
    }

    func testStubInScenarioWithoutWhenStateMatchesInAnyState() throws {
        let engine = try makeEngine(
            #"""
            {"stubs":[
              {"id":"advance","request":{"path":"/next"},"scenario":"flow","setState":"Two","responses":[{}]},
              {"id":"two","request":{"path":"/state"},"scenario":"flow","whenState":"Two","responses":[{"status":202}]},
              {"id":"back","request":{"path":"/back"},"scenario":"flow","whenState":"Two","setState":"Started","responses":[{}]}
            ]}
            """#)
        XCTAssertEqual(engine.get("/state").status, 404)
        XCTAssertEqual(engine.get("/next").stubID, "advance")
        XCTAssertEqual(engine.get("/next").stubID, "advance", "no whenState: matches in Two as well")
        XCTAssertEqual(engine.get("/state").status, 202)
        XCTAssertEqual(engine.get("/back").stubID, "back")
        XCTAssertEqual(engine.get("/state").status, 404)
        XCTAssertTrue(engine.get("/state").text.contains("scenario flow is in state Started, stub wants Two"))
    }

    func testScenariosAreIndependent() throws {
        let engine = try makeEngine(
            #"""
            {"stubs":[
              {"request":{"path":"/a"},"scenario":"A","setState":"Done","responses":[{}]},
              {"request":{"path":"/b"},"scenario":"B","whenState":"Started","responses":[{"status":203}]}
            ]}
            """#)
        _ = engine.get("/a")
        XCTAssertEqual(engine.scenarioState("A"), "Done")
        XCTAssertEqual(engine.scenarioState("B"), "Started")
        XCTAssertEqual(engine.get("/b").status, 203)
    }
}
