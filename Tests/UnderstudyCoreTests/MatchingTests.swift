import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// Request matching: every condition of `request`, load order, and percent-decoding.
final class MatchingTests: XCTestCase {
    func testMethodIsCaseInsensitiveAndOptional() throws {
        let engine = try makeEngine(
            #"""
            {"stubs": [
              {"id": "post", "request": {"method": "post", "path": "/m"}, "responses": [{"status": 201}]},
              {"id": "any", "request": {"path": "/m"}, "responses": [{"status": 200}]}
            ]}
            """#)
        XCTAssertEqual(engine.send("POST", "/m").stubID, "post")
        XCTAssertEqual(engine.send("post", "/m").status, 201)
        XCTAssertEqual(engine.send("DELETE", "/m").stubID, "any")
        XCTAssertEqual(engine.send("BREW", "/m").stubID, "any")
    }

    func testExactPathIsComparedAfterPercentDecoding() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"id":"space","request":{"path":"/a b/ü"},"responses":[{}]},{"id":"enc","request":{"path":"/x%2Fy"},"responses":[{}]}]}"#
        )
        XCTAssertEqual(engine.get("/a%20b/%C3%BC").stubID, "space")
        XCTAssertEqual(engine.get("/x/y").stubID, "enc", "a stub path is decoded too")
        XCTAssertEqual(engine.get("/a%20b").status, 404)
    }

    func testPathPatternMatchesTheWholePath() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"id":"p","request":{"pathPattern":"/users/[0-9]+"},"responses":[{}]}]}"#)
        XCTAssertEqual(engine.get("/users/42").stubID, "p")
        XCTAssertEqual(engine.get("/users/42/posts").status, 404, "a prefix match is not enough")
        XCTAssertEqual(engine.get("/v1/users/42").status, 404)
    }

    func testQueryMatchers() throws {
        let engine = try makeEngine(
            #"""
            {"stubs": [
              {"id": "eq", "request": {"path": "/q", "query": {"page": "1", "q": {"contains": "swift"}}}, "responses": [{}]},
              {"id": "re", "request": {"path": "/q", "query": {"page": {"matches": "[0-9]+"}, "debug": {"absent": true}}}, "responses": [{}]},
              {"id": "present", "request": {"path": "/q", "query": {"debug": {"present": true}}}, "responses": [{}]}
            ]}
            """#)
        XCTAssertEqual(engine.get("/q?page=1&q=learn+swift+now").stubID, "eq", "+ decodes to space")
        XCTAssertEqual(engine.get("/q?q=a%20swift&page=1").stubID, "eq", "order does not matter")
        XCTAssertEqual(engine.get("/q?page=7").stubID, "re")
        XCTAssertEqual(
            engine.get("/q?page=7&debug").stubID, "present", "a name without = is present with an empty value")
        XCTAssertEqual(engine.get("/q?page=x").status, 404)
        XCTAssertEqual(engine.get("/q?page=2&page=1&q=swift").stubID, "eq", "any repeated value may match")
    }

    func testHeaderMatchersIgnoreNameCase() throws {
        let engine = try makeEngine(
            #"""
            {"stubs": [
              {"id": "bearer", "request": {"headers": {"authorization": {"matches": "^Bearer .+"}, "X-Trace": {"absent": true}}}, "responses": [{}]},
              {"id": "exact", "request": {"headers": {"Accept": "application/json"}}, "responses": [{}]},
              {"id": "contains", "request": {"headers": {"User-Agent": {"contains": "curl"}}}, "responses": [{}]},
              {"id": "equals", "request": {"headers": {"X-Mode": {"equals": "a"}}}, "responses": [{}]}
            ]}
            """#)
        XCTAssertEqual(engine.get("/", headers: ["AUTHORIZATION": "Bearer t"]).stubID, "bearer")
        XCTAssertEqual(
            engine.get("/", headers: ["Authorization": "Bearer t", "x-trace": "1", "Accept": "application/json"])
                .stubID, "exact")
        XCTAssertEqual(
            engine.get("/", headers: ["Authorization": "Basic x", "user-agent": "curl/8.0"]).stubID, "contains")
        XCTAssertEqual(engine.get("/", headers: ["X-Mode": "a"]).stubID, "equals")
        XCTAssertEqual(engine.get("/", headers: ["X-Mode": "A"]).status, 404, "values compare exactly")
    }

    func testMediaTypesAndConnectionOptionsIgnoreCaseOtherHeaderValuesDoNot() throws {
        let engine = try makeEngine(
            #"""
            {"stubs": [
              {"id": "json", "request": {"path": "/ct", "headers": {"Content-Type": "application/json; charset=utf-8"}}, "responses": [{}]},
              {"id": "written-upper", "request": {"path": "/upper", "headers": {"content-type": {"equals": "Application/JSON"}}}, "responses": [{}]},
              {"id": "accept", "request": {"path": "/accept", "headers": {"Accept": {"contains": "application/problem+json"}}}, "responses": [{}]},
              {"id": "connection", "request": {"path": "/conn", "headers": {"Connection": {"matches": "keep-alive(, *upgrade)?"}}}, "responses": [{}]},
              {"id": "boundary", "request": {"path": "/form", "headers": {"Content-Type": "multipart/form-data; boundary=AbC"}}, "responses": [{}]},
              {"id": "custom", "request": {"path": "/custom", "headers": {"X-Kind": "json"}}, "responses": [{}]}
            ]}
            """#)
        XCTAssertEqual(engine.get("/ct", headers: ["Content-Type": "APPLICATION/JSON; CHARSET=UTF-8"]).stubID, "json")
        XCTAssertEqual(engine.get("/ct", headers: ["Content-Type": "application/json; charset=utf-8"]).stubID, "json")
        XCTAssertEqual(engine.get("/ct", headers: ["Content-Type": "text/json; charset=utf-8"]).status, 404)
        XCTAssertEqual(engine.get("/upper", headers: ["Content-Type": "application/json"]).stubID, "written-upper")
        XCTAssertEqual(
            engine.get("/accept", headers: ["Accept": "Application/Problem+JSON;q=0.9, */*"]).stubID, "accept")
        XCTAssertEqual(engine.get("/conn", headers: ["Connection": "Keep-Alive, Upgrade"]).stubID, "connection")
        XCTAssertEqual(
            engine.get("/form", headers: ["Content-Type": "Multipart/Form-Data; Boundary=AbC"]).stubID, "boundary")
        XCTAssertEqual(
            engine.get("/form", headers: ["Content-Type": "multipart/form-data; boundary=ABC"]).status, 404,
            "a parameter's value (other than a charset) keeps its case")
        XCTAssertEqual(engine.get("/custom", headers: ["X-Kind": "JSON"]).status, 404, "other headers compare exactly")
    }

    func testNegativeMatchersAcceptAMissingName() throws {
        let engine = try makeEngine(
            #"""
            {"stubs": [
              {"id": "not", "request": {"path": "/not", "headers": {"X-Handling": {"not": {"equals": "fragile"}}}}, "responses": [{}]},
              {"id": "not-contains", "request": {"path": "/dnc", "query": {"key": {"doesNotContain": "test"}}}, "responses": [{}]},
              {"id": "not-present", "request": {"path": "/np", "headers": {"X-Debug": {"not": {"present": true}}}}, "responses": [{}]},
              {"id": "not-absent", "request": {"path": "/na", "headers": {"X-Debug": {"not": {"absent": true}}}}, "responses": [{}]},
              {"id": "all", "request": {"path": "/all", "cookies": {"c": {"allOf": [{"doesNotMatch": "x.*"}, {"not": {"contains": "y"}}]}}}, "responses": [{}]},
              {"id": "needs-it", "request": {"path": "/needs", "headers": {"X-Key": {"allOf": [{"present": true}, {"not": {"equals": "k1"}}]}}}, "responses": [{}]},
              {"id": "positive", "request": {"path": "/pos", "headers": {"X-Key": {"anyOf": [{"equals": "a"}, {"matches": "b+"}]}}}, "responses": [{}]}
            ]}
            """#)
        XCTAssertEqual(engine.get("/not").stubID, "not", "any key but the fragile one, none included")
        XCTAssertEqual(engine.get("/not", headers: ["X-Handling": "robust"]).stubID, "not")
        XCTAssertEqual(engine.get("/not", headers: ["X-Handling": "fragile"]).status, 404)
        XCTAssertEqual(engine.get("/dnc").stubID, "not-contains")
        XCTAssertEqual(engine.get("/dnc?key=a-test-key").status, 404)
        XCTAssertEqual(engine.get("/np").stubID, "not-present")
        XCTAssertEqual(engine.get("/np", headers: ["X-Debug": "1"]).status, 404)
        XCTAssertEqual(engine.get("/na", headers: ["X-Debug": "1"]).stubID, "not-absent")
        XCTAssertEqual(engine.get("/na").status, 404)
        XCTAssertEqual(engine.get("/all").stubID, "all")
        XCTAssertEqual(engine.get("/all", headers: ["Cookie": "c=xa"]).status, 404)
        XCTAssertEqual(engine.get("/needs").status, 404, "allOf with present needs the name")
        XCTAssertEqual(engine.get("/needs", headers: ["X-Key": "k2"]).stubID, "needs-it")
        XCTAssertEqual(engine.get("/pos").status, 404, "positive matchers need a value")
    }

    func testJSONPathEmptySelectionsAndAbsent() throws {
        let engine = try makeEngine(
            #"""
            {"stubs": [
              {"id": "items", "request": {"path": "/items", "body": {"jsonPath": "$.items"}}, "responses": [{}]},
              {"id": "unsigned", "request": {"path": "/unsigned", "body": {"jsonPath": {"expression": "$.signature", "matcher": {"absent": true}}}}, "responses": [{}]},
              {"id": "amount", "request": {"path": "/amount", "body": {"jsonPath": {"expression": "$.amount", "matcher": "20.10"}}}, "responses": [{}]}
            ]}
            """#)
        XCTAssertEqual(engine.send("POST", "/items", body: #"{"items": [1]}"#).stubID, "items")
        XCTAssertEqual(
            engine.send("POST", "/items", body: #"{"items": []}"#).status, 404, "an empty array selects nothing")
        XCTAssertEqual(engine.send("POST", "/items", body: #"{"items": {}}"#).status, 404)
        XCTAssertEqual(engine.send("POST", "/unsigned", body: #"{"a": 1}"#).stubID, "unsigned")
        XCTAssertEqual(engine.send("POST", "/unsigned", body: #"{"signature": "s"}"#).status, 404)
        XCTAssertEqual(
            engine.send("POST", "/amount", body: #"{"amount": 20.10}"#).stubID, "amount", "natively, as written")
    }

    func testBodyMatchers() throws {
        let engine = try makeEngine(
            #"""
            {"stubs": [
              {"id": "equals", "request": {"path": "/equals", "body": {"equals": "exact"}}, "responses": [{}]},
              {"id": "contains", "request": {"path": "/contains", "body": {"contains": "needle"}}, "responses": [{}]},
              {"id": "matches", "request": {"path": "/matches", "body": {"matches": "id=[0-9]+"}}, "responses": [{}]},
              {"id": "json", "request": {"path": "/json", "body": {"json": {"a": 1, "b": [1, 2]}}}, "responses": [{}]},
              {"id": "subset", "request": {"path": "/subset", "body": {"jsonSubset": {"user": {"name": "ada"}, "tags": ["x"]}}}, "responses": [{}]}
            ]}
            """#)
        XCTAssertEqual(engine.send("POST", "/equals", body: "exact").stubID, "equals")
        XCTAssertEqual(engine.send("POST", "/equals", body: "exact ").status, 404)
        XCTAssertEqual(engine.send("POST", "/contains", body: "hay needle hay").stubID, "contains")
        XCTAssertEqual(engine.send("POST", "/matches", body: "id=12").stubID, "matches")
        XCTAssertEqual(engine.send("POST", "/matches", body: "id=12&x").status, 404)
        XCTAssertEqual(
            engine.send("POST", "/json", body: #"{"b":[1,2.0],"a":1e0}"#).stubID, "json",
            "key order and number spelling ignored")
        XCTAssertEqual(engine.send("POST", "/json", body: #"{"a":1,"b":[2,1]}"#).status, 404, "array order matters")
        XCTAssertEqual(
            engine.send("POST", "/json", body: #"{"a":1,"b":[1,2],"c":3}"#).status, 404, "extra keys refused")
        XCTAssertEqual(
            engine.send("POST", "/subset", body: #"{"id":9,"user":{"name":"ada","age":36},"tags":["y","x"]}"#).stubID,
            "subset")
        XCTAssertEqual(engine.send("POST", "/subset", body: #"{"user":{"name":"bob"},"tags":["x"]}"#).status, 404)
        XCTAssertEqual(engine.send("POST", "/subset", body: "not json").status, 404)
    }

    func testEmptyOrAbsentRequestMatchesEverything() throws {
        let engine = try makeEngine(#"{"stubs":[{"id":"all","responses":[{}]}]}"#)
        XCTAssertEqual(engine.send("PUT", "/anything/at/all?x=1", body: "b").stubID, "all")
    }

    func testFirstStubInLoadOrderWinsAcrossIndexedAndPatternedStubs() throws {
        let engine = try makeEngine(
            #"""
            {"stubs": [
              {"id": "pattern-first", "request": {"pathPattern": "/o.*"}, "responses": [{}]},
              {"id": "exact-get", "request": {"method": "GET", "path": "/order"}, "responses": [{}]},
              {"id": "exact-any", "request": {"path": "/other"}, "responses": [{}]},
              {"id": "exact-get-other", "request": {"method": "GET", "path": "/other"}, "responses": [{}]}
            ]}
            """#)
        XCTAssertEqual(engine.get("/order").stubID, "pattern-first")
        let reordered = try makeEngine(
            #"""
            {"stubs": [
              {"id": "exact-any", "request": {"path": "/other"}, "responses": [{}]},
              {"id": "exact-get", "request": {"method": "GET", "path": "/other"}, "responses": [{}]},
              {"id": "pattern", "request": {"pathPattern": "/o.*"}, "responses": [{}]}
            ]}
            """#)
        XCTAssertEqual(reordered.get("/other").stubID, "exact-any")
        XCTAssertEqual(reordered.get("/oops").stubID, "pattern")
    }

    func testPatternPrefixesAreOnlyTheLiteralTextEveryMatchStartsWith() {
        let prefix = { String(decoding: PatternPrefix.of($0), as: UTF8.self) }
        XCTAssertEqual(prefix("^/bench/p7/[0-9]+$"), "/bench/p7/")
        XCTAssertEqual(prefix("/users/[0-9]+"), "/users/")
        XCTAssertEqual(prefix("\\A/a/b$"), "/a/b")
        XCTAssertEqual(prefix("^/ab?c"), "/a", "an optional character ends the prefix before it")
        XCTAssertEqual(prefix("^/ab*"), "/a")
        XCTAssertEqual(prefix("^/ab{0,2}"), "/a")
        XCTAssertEqual(prefix("^/ab+c"), "/ab", "a repeated character is needed once")
        XCTAssertEqual(prefix("^/a|/b"), "", "alternation anywhere: no prefix")
        XCTAssertEqual(prefix("^(?i)/abc"), "")
        XCTAssertEqual(prefix("/a\\.b"), "/a")
        XCTAssertEqual(prefix("/é/x"), "/", "non-ASCII ends it")
    }

    func testPatternStubsOutsideTheirPrefixAreSkippedButLoadOrderAndAlternationStillHold() throws {
        let engine = try makeEngine(
            #"""
            {"stubs": [
              {"id": "p1", "request": {"pathPattern": "^/bench/p1/[0-9]+$"}, "responses": [{}]},
              {"id": "p2", "request": {"pathPattern": "^/bench/p2/[0-9]+$"}, "responses": [{}]},
              {"id": "either", "request": {"pathPattern": "^/x/[a-z]+|/bench/p2/7$"}, "responses": [{}]},
              {"id": "ci", "request": {"pathPattern": "(?i)/CASE/[0-9]+"}, "responses": [{}]},
              {"id": "exact", "request": {"path": "/bench/p2/8"}, "responses": [{}]}
            ]}
            """#)
        XCTAssertEqual(engine.get("/bench/p2/42").stubID, "p2")
        XCTAssertEqual(engine.get("/bench/p1/1").stubID, "p1")
        XCTAssertEqual(engine.get("/x/abc").stubID, "either")
        XCTAssertEqual(engine.get("/case/5").stubID, "ci")
        XCTAssertEqual(engine.get("/bench/p2/8").stubID, "p2", "an earlier pattern still beats a later exact path")
        XCTAssertEqual(engine.get("/bench/p3/1").status, 404)
    }

    func testIndexFindsTheRightStubAmongThousandsAndSkipsNonCandidates() throws {
        var stubs: [String] = []
        for i in 0..<1_000 {
            stubs.append(
                #"{"id":"s\#(i)","request":{"method":"GET","path":"/items/\#(i)","headers":{"X-Tick":{"matches":"never-\#(i)"}}},"responses":[{}]}"#
            )
        }
        stubs.append(#"{"id":"hit","request":{"method":"GET","path":"/items/500"},"responses":[{"status":202}]}"#)
        let engine = try makeEngine(#"{"stubs":["# + stubs.joined(separator: ",") + "]}")
        // Only stubs indexed under GET /items/500 (and unindexed ones) are candidates; a linear scan
        // would evaluate the 1 000 regexes of the other stubs.
        var visited: [Int] = []
        engine.index.firstCandidate(method: "GET", path: "/items/500") {
            visited.append($0)
            return false
        }
        XCTAssertEqual(visited, [500, 1_000])
        XCTAssertEqual(engine.get("/items/500").stubID, "hit")
        XCTAssertEqual(engine.get("/items/500").status, 202)
        XCTAssertEqual(engine.get("/items/999", headers: ["X-Tick": "never-999"]).stubID, "s999")
    }
}
