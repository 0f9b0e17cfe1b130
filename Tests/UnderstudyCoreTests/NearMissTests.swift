import XCTest
@testable import UnderstudyCore

/// The unmatched response: configurable status, and the closest stubs with why each missed.
final class NearMissTests: XCTestCase {
    func testListsTheClosestStubsWithEveryReason() throws {
        let engine = try makeEngine(#"""
        {"stubs":[
          {"id":"far","request":{"method":"DELETE","path":"/admin/users"},"responses":[{}]},
          {"id":"posts","request":{"method":"GET","path":"/posts","headers":{"Authorization":{"matches":"^Bearer .+"}}},"responses":[{}]},
          {"id":"post-query","request":{"method":"GET","path":"/postz","query":{"page":"2"}},"responses":[{}]},
          {"id":"body","request":{"method":"POST","path":"/postz","body":{"json":{"a":1}}},"responses":[{}]},
          {"id":"other","request":{"path":"/zzzzzzzzzz"},"responses":[{}]}
        ]}
        """#, unmatchedStatus: 599)
        let response = engine.get("/postz?page=1")
        XCTAssertEqual(response.status, 599)
        XCTAssertEqual(response.headers["Content-Type"], "text/plain; charset=utf-8")
        XCTAssertNil(response.stubID)
        XCTAssertEqual(response.text, """
        No stub matched GET /postz?page=1

        Closest stubs:
        - post-query (test.json)
            query page="1" ≠ "2"
        - body (test.json)
            method GET ≠ POST
            body is not JSON
        - posts (test.json)
            path /postz ≠ /posts
            header Authorization absent

        """)
    }

    func testHeaderValueAndPresenceReasons() throws {
        let engine = try makeEngine(#"{"stubs":[{"id":"h","request":{"headers":{"Authorization":{"matches":"^Bearer .+"},"X-Debug":{"absent":true},"Accept":{"contains":"json"}}},"responses":[{}]}]}"#)
        let text = engine.get("/", headers: ["Authorization": "Basic abc", "X-Debug": "1", "Accept": "text/html"]).text
        XCTAssertTrue(text.contains(#"header Authorization: "Basic abc" does not match ^Bearer .+"#), text)
        XCTAssertTrue(text.contains(#"header X-Debug present ("1"), stub wants it absent"#), text)
        XCTAssertTrue(text.contains(#"header Accept: "text/html" does not contain "json""#), text)
    }

    func testScenarioStateIsAReason() throws {
        let engine = try makeEngine(#"{"stubs":[{"id":"s","request":{"path":"/p"},"scenario":"auth","whenState":"Refreshed","responses":[{}]}]}"#)
        XCTAssertTrue(engine.get("/p").text.contains("scenario auth is in state Started, stub wants Refreshed"))
    }

    func testNoStubsLoaded() throws {
        let engine = try makeEngine(#"{"stubs":[]}"#)
        let response = engine.send("PATCH", "/x")
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(response.text, "No stub matched PATCH /x\n\nNo stubs are loaded.\n")
        XCTAssertEqual(engine.journalObjects.first?["matched"] as? Bool, false)
        XCTAssertTrue(engine.journalObjects.first?["stub"] is NSNull)
    }
}
