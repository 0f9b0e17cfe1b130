import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The unmatched response: configurable status, and the closest stubs with why each missed.
final class NearMissTests: XCTestCase {
    func testListsTheClosestStubsWithEveryReason() throws {
        let engine = try makeEngine(
            #"""
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
        XCTAssertEqual(
            response.text,
            """
            No stub matched GET /postz?page=1

            Closest stubs:
            - post-query (test.json)
                query page="1" ≠ "2"
            - posts (test.json)
                path /postz ≠ /posts
                header Authorization absent
            - body (test.json)
                method GET ≠ POST
                body is not JSON

            """)
    }

    // MARK: Ranking by closeness

    /// The ids of the stubs the unmatched response lists, in order.
    private func closest(
        _ engine: StubEngine, _ target: String, method: String = "GET", headers: HTTPHeaders = HTTPHeaders(),
        body: String = ""
    ) -> [String] {
        let text = engine.send(method, target, headers: headers, body: body).text
        return text.split(separator: "\n").filter { $0.hasPrefix("- ") }.map {
            String($0.dropFirst(2).prefix { $0 != " " })
        }
    }

    func testTheExampleTheUserMeantComesFirst() throws {
        // The report that motivated ranking: this listed three unrelated stubs in load order.
        let engine = StubEngine(stubs: try StubLoader.load(paths: [repositoryRoot + "/stubs"]))
        let text = engine.get("/examples/respond-then-respond").text
        XCTAssertTrue(
            text.hasPrefix(
                """
                No stub matched GET /examples/respond-then-respond

                Closest stubs:
                - example-retry-after-then-ok (\(repositoryRoot)/stubs/respond-then-respond.json)
                    path /examples/respond-then-respond ≠ /examples/retry-after
                - 
                """), text)
        XCTAssertEqual(closest(engine, "/examples/rate-limted").first, "example-rate-limited")
        XCTAssertEqual(closest(engine, "/examples/rate-limited-fractionl").first, "example-rate-limited-fractional")
        XCTAssertEqual(closest(engine, "/examples/fault/connection-rest").first, "example-fault-connection-reset")
        XCTAssertEqual(closest(engine, "/examples/tokens", method: "POST").first, "example-token-refresh")
    }

    func testPathsRankByEditDistanceNotLoadOrder() throws {
        let engine = try makeEngine(
            #"""
            {"stubs":[
              {"id":"unrelated","request":{"path":"/completely/different"},"responses":[{}]},
              {"id":"two-off","request":{"path":"/items/1299"},"responses":[{}]},
              {"id":"one-off","request":{"path":"/items/123"},"responses":[{}]},
              {"id":"pattern","request":{"pathPattern":"/other/[0-9]+"},"responses":[{}]}
            ]}
            """#)
        XCTAssertEqual(closest(engine, "/items/124"), ["one-off", "two-off", "unrelated"])
    }

    func testTheMethodWeighsLessThanThePathAndMoreThanAHeader() throws {
        let engine = try makeEngine(
            #"""
            {"stubs":[
              {"id":"other-method","request":{"method":"DELETE","path":"/users/42"},"responses":[{}]},
              {"id":"other-path","request":{"method":"GET","path":"/teams/42"},"responses":[{}]},
              {"id":"needs-header","request":{"method":"GET","path":"/users/42","headers":{"X-Key":{"present":true}}},"responses":[{}]}
            ]}
            """#)
        XCTAssertEqual(closest(engine, "/users/42"), ["needs-header", "other-method", "other-path"])
    }

    func testExactValuesAreGradedByEditDistance() throws {
        let engine = try makeEngine(
            #"""
            {"stubs":[
              {"id":"far-query","request":{"path":"/s","query":{"q":"zzzzzzzz"}},"responses":[{}]},
              {"id":"near-query","request":{"path":"/s","query":{"q":"kittens"}},"responses":[{}]},
              {"id":"far-header","request":{"path":"/h","headers":{"X-Team":"zzzzzz"}},"responses":[{}]},
              {"id":"near-header","request":{"path":"/h","headers":{"X-Team":"alpha"}},"responses":[{}]},
              {"id":"far-body","request":{"path":"/b","body":{"equals":"zzzzzzzzzz"}},"responses":[{}]},
              {"id":"near-body","request":{"path":"/b","body":{"equals":"hello world"}},"responses":[{}]}
            ]}
            """#)
        XCTAssertEqual(closest(engine, "/s?q=kitten").prefix(2), ["near-query", "far-query"])
        XCTAssertEqual(closest(engine, "/h", headers: ["X-Team": "alpah"]).prefix(2), ["near-header", "far-header"])
        XCTAssertEqual(closest(engine, "/b", method: "POST", body: "hello word").prefix(2), ["near-body", "far-body"])
    }

    func testAStubWaitingForAnotherStateOrExhaustedIsAClosMiss() throws {
        let engine = try makeEngine(
            #"""
            {"stubs":[
              {"id":"far","request":{"path":"/zzzzzzzz"},"responses":[{}]},
              {"id":"also-far","request":{"path":"/yyyyyyyy"},"responses":[{}]},
              {"id":"later","request":{"path":"/profile"},"scenario":"auth","whenState":"Refreshed","responses":[{}]},
              {"id":"once","request":{"path":"/once"},"responses":[{}],"afterLast":"exhaust"}
            ]}
            """#)
        XCTAssertEqual(closest(engine, "/profile").first, "later")
        XCTAssertEqual(engine.get("/once").status, 200)
        XCTAssertEqual(closest(engine, "/once").first, "once")
    }

    func testAStubsFileNameOrIdInThePathCountsAsNearlyItsPath() throws {
        let set = try StubLoader.parse(
            bytes: Array(
                #"""
                {"stubs":[
                  {"id":"orders-list","request":{"path":"/api/v2/orders"},"responses":[{}]},
                  {"id":"order-detail","request":{"path":"/api/v2/orders/1"},"responses":[{}]},
                  {"id":"accounts","request":{"path":"/api/v2/users"},"responses":[{}]}
                ]}
                """#.utf8), file: "stubs/customer-profile.json", root: nil)
        let engine = StubEngine(stubs: set)
        // By its id, case aside; by its file's name (all three share it: load order).
        XCTAssertEqual(closest(engine, "/accounts").first, "accounts")
        XCTAssertEqual(closest(engine, "/ORDER-DETAIL").first, "order-detail")
        XCTAssertEqual(closest(engine, "/v1/customer-profile"), ["orders-list", "order-detail", "accounts"])
        // A path one typo away still beats a name.
        XCTAssertEqual(closest(engine, "/api/v2/order/1").first, "order-detail")
    }

    func testTiesKeepLoadOrder() throws {
        let engine = try makeEngine(
            #"""
            {"stubs":[
              {"id":"a","request":{"path":"/x1"},"responses":[{}]},
              {"id":"b","request":{"path":"/x2"},"responses":[{}]},
              {"id":"c","request":{"path":"/x3"},"responses":[{}]},
              {"id":"d","request":{"path":"/x4"},"responses":[{}]}
            ]}
            """#)
        XCTAssertEqual(closest(engine, "/x0"), ["a", "b", "c"])
    }

    /// Pruning must not change the answer: the kept stubs are exactly the three smallest
    /// distances (ties in load order) computed without any budget.
    func testPrunedRankingEqualsTheFullSort() throws {
        var generator = SystemRandomNumberGenerator()
        let words = ["users", "user", "orders", "order", "items", "a", "b", "42", "43", "v1", "v2", "search", "serch"]
        func randomPath() -> String {
            "/"
                + (0..<Int.random(in: 1...3, using: &generator)).map { _ in words.randomElement(using: &generator)! }
                .joined(separator: "/")
        }
        for _ in 0..<40 {
            var stubs: [String] = []
            for i in 0..<60 {
                var request: [String] = []
                if Bool.random(using: &generator) {
                    request.append(#""method":"\#(["GET", "POST"].randomElement(using: &generator)!)""#)
                }
                if Int.random(in: 0..<5, using: &generator) > 0 { request.append(#""path":"\#(randomPath())""#) }
                if Bool.random(using: &generator) {
                    request.append(#""query":{"q":"\#(words.randomElement(using: &generator)!)"}"#)
                }
                if Int.random(in: 0..<3, using: &generator) == 0 {
                    request.append(#""headers":{"X-A":{"present":true}}"#)
                }
                stubs.append(
                    #"{"id":"\#(words.randomElement(using: &generator)!)-\#(i)","request":{\#(request.joined(separator: ","))},"responses":[{}]}"#
                )
            }
            let engine = try makeEngine(#"{"stubs":[\#(stubs.joined(separator: ","))]}"#)
            for _ in 0..<10 {
                let target =
                    randomPath()
                    + (Bool.random(using: &generator) ? "?q=" + words.randomElement(using: &generator)! : "")
                let context = MatchContext(
                    HTTPRequest(method: ["GET", "POST", "PUT"].randomElement(using: &generator)!, target: target))
                if engine.stubs.indices.contains(where: { engine.stubs[$0].request.matches(context) }) { continue }
                let segment = NearMissName.segment(of: context.path)
                let full = engine.stubs.indices
                    .map {
                        (
                            distance: engine.nearMissRanking.distance(
                                of: $0, from: context, segment: segment, budget: .infinity)!, index: $0
                        )
                    }
                    .sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }
                    .prefix(NearMissRanking.count)
                let pruned = engine.nearMissRanking.nearMisses(context)
                XCTAssertEqual(pruned.map(\.stubID), full.map { engine.stubs[$0.index].id }, target)
                XCTAssertEqual(pruned.map(\.distance), full.map(\.distance), target)
            }
        }
    }

    func testHeaderValueAndPresenceReasons() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"id":"h","request":{"headers":{"Authorization":{"matches":"^Bearer .+"},"X-Debug":{"absent":true},"Accept":{"contains":"json"}}},"responses":[{}]}]}"#
        )
        let text = engine.get("/", headers: ["Authorization": "Basic abc", "X-Debug": "1", "Accept": "text/html"]).text
        XCTAssertTrue(text.contains(#"header Authorization: "Basic abc" does not match ^Bearer .+"#), text)
        XCTAssertTrue(text.contains(#"header X-Debug present ("1"), stub wants it absent"#), text)
        XCTAssertTrue(text.contains(#"header Accept: "text/html" does not contain "json""#), text)
    }

    func testScenarioStateIsAReason() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"id":"s","request":{"path":"/p"},"scenario":"auth","whenState":"Refreshed","responses":[{}]}]}"#
        )
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
