import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The admin endpoints behind the page: near-miss explanations of journaled requests, rate-limit
/// windows, the status filter; and the browser's `/favicon.ico`, which must not be journaled.
final class VisibilityAdminTests: XCTestCase {
    private let stubs = #"""
        {"stubs":[
          {"id":"posts","request":{"method":"GET","path":"/posts","headers":{"Authorization":{"present":true}}},"responses":[{"status":200}]},
          {"id":"login","request":{"method":"POST","path":"/login"},"responses":[{"status":201}]},
          {"id":"limited","request":{"path":"/search"},"rateLimit":{"limit":2,"window":10},"responses":[{}]}
        ]}
        """#

    func testNearMissesExplainAJournaledRequestOnlyWhenAsked() throws {
        let engine = try makeEngine(stubs)
        let sent = engine.get("/postz?page=1")
        XCTAssertEqual(sent.status, 404)
        let response = engine.adminCall("GET", "/__admin/requests/1/near-misses")
        XCTAssertEqual(response.status, 200)
        let object = response.jsonObject
        XCTAssertEqual(object["seq"] as? Int, 1)
        XCTAssertEqual(object["matched"] as? Bool, false)
        XCTAssertEqual(object["text"] as? String, sent.text, "the same explanation the client got")
        let misses = try XCTUnwrap(object["nearMisses"] as? [[String: Any]])
        XCTAssertEqual(misses.first?["stub"] as? String, "posts")
        XCTAssertEqual(misses.first?["reasons"] as? [String], ["path /postz ≠ /posts", "header Authorization absent"])
        XCTAssertEqual(engine.journalEntries.count, 1, "asking is not journaled")
    }

    func testNearMissesRefuseUnknownAndBadSeqs() throws {
        let engine = try makeEngine(stubs)
        _ = engine.get("/nothing")
        XCTAssertEqual(engine.adminCall("GET", "/__admin/requests/2/near-misses").status, 404)
        XCTAssertEqual(engine.adminCall("GET", "/__admin/requests/abc/near-misses").status, 400)
        XCTAssertEqual(engine.adminCall("POST", "/__admin/requests/1/near-misses").status, 405)
        _ = engine.adminCall("DELETE", "/__admin/requests")
        XCTAssertEqual(
            engine.adminCall("GET", "/__admin/requests/1/near-misses").status, 404, "cleared entries are gone")
    }

    func testRateLimitWindowsCanBeLookedAtWithoutUsingThemUp() throws {
        let clock = ManualEngineClock()
        let engine = try makeEngine(stubs, clock: clock)
        XCTAssertEqual(engine.get("/search").status, 200)
        for _ in 0..<3 {
            let limits = try XCTUnwrap(
                engine.adminCall("GET", "/__admin/rate-limits").jsonObject["rateLimits"] as? [[String: Any]])
            XCTAssertEqual(limits.count, 1)
            XCTAssertEqual(limits[0]["stub"] as? String, "limited")
            XCTAssertEqual(limits[0]["remaining"] as? Int, 1)
            XCTAssertEqual(limits[0]["limit"] as? Int, 2)
            XCTAssertEqual(limits[0]["resetSeconds"] as? Double, 10)
        }
        XCTAssertEqual(engine.get("/search").status, 200, "looking used up no slot")
        XCTAssertEqual(engine.get("/search").status, 429)
        clock.advance(seconds: 4)
        let limits = try XCTUnwrap(
            engine.adminCall("GET", "/__admin/rate-limits").jsonObject["rateLimits"] as? [[String: Any]])
        XCTAssertEqual(limits[0]["remaining"] as? Int, 0)
        XCTAssertEqual(limits[0]["resetSeconds"] as? Double, 6)
    }

    func testTheStatusFilterTakesACodeOrAClass() throws {
        let engine = try makeEngine(stubs)
        _ = engine.send("POST", "/login")
        _ = engine.get("/nothing")
        _ = engine.get("/search")
        _ = engine.get("/search")
        _ = engine.get("/search")
        func statuses(_ query: String) -> [Int] {
            (engine.adminCall("GET", "/__admin/requests?" + query).jsonObject["requests"] as? [[String: Any]] ?? [])
                .compactMap { $0["status"] as? Int }
        }
        XCTAssertEqual(statuses("status=4xx"), [404, 429])
        XCTAssertEqual(statuses("status=4XX&limit=1"), [404])
        XCTAssertEqual(statuses("status=201"), [201])
        XCTAssertEqual(statuses("status=2xx&stub=limited"), [200, 200])
        for bad in ["status=abc", "status=600", "status=6xx", "status=99"] {
            let response = engine.adminCall("GET", "/__admin/requests?" + bad)
            XCTAssertEqual(response.status, 400, bad)
            XCTAssertTrue(response.text.contains("status must be"), response.text)
        }
    }

    func testABrowsersFaviconRequestIsAnsweredButNotJournaled() throws {
        let engine = try makeEngine(stubs)
        for method in ["GET", "HEAD"] {
            let response = engine.send(method, "/favicon.ico")
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.headers["Content-Type"], "image/x-icon")
            XCTAssertEqual(response.body, StubEngine.browserIconBytes)
        }
        XCTAssertEqual(engine.journalEntries.count, 0)
        XCTAssertEqual(engine.send("POST", "/favicon.ico").status, 404, "not a browser's icon fetch")
        XCTAssertEqual(engine.get("/favicon.ico?v=2").status, 200, "a query does not make it the client's")
        XCTAssertEqual(engine.journalEntries.map(\.request.method), ["POST"])
    }

    func testAStubAboutTheFaviconWinsEvenWhenExhausted() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"id":"icon","request":{"pathPattern":"/favicon\\.ico"},"responses":[{"status":204}],"afterLast":"exhaust"}]}"#
        )
        XCTAssertEqual(engine.get("/favicon.ico").status, 204)
        XCTAssertEqual(engine.get("/favicon.ico").status, 404, "exhausted: the user's miss, explained and journaled")
        XCTAssertEqual(engine.journalEntries.map(\.matched), [true, false])
    }
}
