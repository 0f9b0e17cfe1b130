import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

final class SmokeTests: XCTestCase {
    func testReadmeExampleServesSequence() throws {
        let engine = try makeEngine(
            """
            {
              "stubs": [
                {
                  "id": "posts-rate-limited",
                  "request": {
                    "method": "GET",
                    "path": "/posts",
                    "query": { "page": "1" },
                    "headers": { "Authorization": { "matches": "^Bearer .+" } }
                  },
                  "responses": [
                    { "status": 429, "headers": { "Retry-After": "0.2" } },
                    { "status": 200, "json": [ { "id": 1, "title": "hello" } ] }
                  ],
                  "afterLast": "repeat"
                }
              ]
            }
            """)
        let auth: HTTPHeaders = ["Authorization": "Bearer abc"]
        let first = engine.get("/posts?page=1", headers: auth)
        XCTAssertEqual(first.status, 429)
        XCTAssertEqual(first.headers["Retry-After"], "0.2")
        let second = engine.get("/posts?page=1", headers: auth)
        XCTAssertEqual(second.status, 200)
        XCTAssertEqual(second.text, #"[{"id":1,"title":"hello"}]"#)
        XCTAssertEqual(second.headers["Content-Type"], "application/json")
        XCTAssertEqual(engine.get("/posts?page=1", headers: auth).status, 200)
        let miss = engine.get("/postz?page=1")
        XCTAssertEqual(miss.status, 404)
        XCTAssertTrue(miss.text.contains("No stub matched GET /postz?page=1"), miss.text)
        XCTAssertTrue(miss.text.contains("path /postz ≠ /posts"), miss.text)
        XCTAssertTrue(miss.text.contains("header Authorization absent"), miss.text)
        XCTAssertEqual(engine.journalEntries.count, 4)
    }
}
