import XCTest
@testable import UnderstudyCore
import UnderstudyWireMock
import UnderstudyCoreTestSupport

/// Every admin endpoint, called as a plain function, including its error cases.
final class AdminAPITests: XCTestCase {
    // The admin API as the daemon serves it: the native routes with the WireMock adapter's
    // hooks (scenario fields, the `GET /__admin` probe), installed as the CLI installs them.
    override func setUp() {
        super.setUp()
        WireMockSupport.install()
    }

    private let stubs = #"""
        {"stubs":[
          {"id":"posts","request":{"method":"GET","path":"/posts"},"responses":[{"status":200},{"status":201}],"afterLast":"exhaust"},
          {"id":"login","request":{"method":"POST","path":"/login"},"scenario":"auth","setState":"LoggedIn","responses":[{}]},
          {"id":"me","request":{"path":"/me"},"scenario":"auth","whenState":"LoggedIn","responses":[{}],
           "rateLimit":{"limit":5,"window":1.5}}
        ]}
        """#

    func testHealth() throws {
        let engine = try makeEngine(stubs)
        _ = engine.get("/posts")
        let response = engine.adminCall("GET", "/__admin/health")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["Content-Type"], "application/json")
        XCTAssertEqual(response.text, #"{"status":"ok","stubs":3,"requests":1,"pending":0,"waiting":0,"skipped":[]}"#)
    }

    /// An unknown endpoint's 404 names the page that lists every endpoint, and that page exists.
    func testAnUnknownEndpointPointsAtTheAdminAPIReference() throws {
        let engine = try makeEngine(stubs)
        let response = engine.adminCall("GET", "/__admin/nope")
        XCTAssertEqual(response.status, 404)
        XCTAssertTrue(
            response.text.contains("no admin endpoint GET /__admin/nope; see docs/admin-api.md"), response.text)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("docs/admin-api.md").path))
    }

    func testListRequestsWithEveryFilter() throws {
        let engine = try makeEngine(stubs)
        _ = engine.get("/posts")  // 1 matched posts
        _ = engine.send("POST", "/login")  // 2 matched login
        _ = engine.get("/nothing")  // 3 unmatched
        _ = engine.get("/posts")  // 4 matched posts
        _ = engine.get("/p%6Fsts")  // 5 unmatched (posts exhausted), decoded path /posts
        func seqs(_ query: String) -> [Int] {
            let object = engine.adminCall("GET", "/__admin/requests" + query).jsonObject
            return (object["requests"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int }
        }
        XCTAssertEqual(seqs(""), [1, 2, 3, 4, 5])
        XCTAssertEqual(seqs("?stub=posts"), [1, 4])
        XCTAssertEqual(seqs("?method=post"), [2])
        XCTAssertEqual(seqs("?path=/posts"), [1, 4, 5])
        XCTAssertEqual(seqs("?matched=false"), [3, 5])
        XCTAssertEqual(seqs("?matched=true&since=1"), [2, 4])
        XCTAssertEqual(seqs("?since=2&limit=2"), [3, 4])
        let limited = engine.adminCall("GET", "/__admin/requests?limit=1").jsonObject
        XCTAssertEqual(limited["total"] as? Int, 5, "total counts matches before limit")
        XCTAssertEqual(limited["dropped"] as? Int, 0)
        XCTAssertEqual((limited["requests"] as? [Any])?.count, 1)
    }

    func testListRequestsRejectsBadFilters() throws {
        let engine = try makeEngine(stubs)
        for (query, message) in [
            ("limit=abc", "limit must be a count"), ("matched=maybe", "matched must be true or false"),
            ("since=-1", "since must be a seq number"), ("stbu=posts", "unknown filter `stbu`; did you mean `stub`?"),
        ] {
            let response = engine.adminCall("GET", "/__admin/requests?" + query)
            XCTAssertEqual(response.status, 400, query)
            XCTAssertTrue((response.jsonObject["error"] as? String ?? "").contains(message), response.text)
        }
    }

    func testDeleteRequestsClearsButSeqKeepsCounting() throws {
        let engine = try makeEngine(stubs)
        _ = engine.get("/a")
        _ = engine.get("/b")
        XCTAssertEqual(engine.adminCall("DELETE", "/__admin/requests").text, #"{"cleared":2}"#)
        XCTAssertEqual(engine.journalEntries.count, 0)
        _ = engine.get("/c")
        XCTAssertEqual(engine.journalEntries.map(\.seq), [3])
    }

    func testCountRequestsBareAndWrapped() throws {
        let engine = try makeEngine(stubs)
        _ = engine.send("POST", "/orders", headers: ["Content-Type": "application/json"], body: #"{"qty":2,"sku":"a"}"#)
        _ = engine.send("POST", "/orders", body: #"{"qty":3}"#)
        _ = engine.get("/orders?x=1")
        XCTAssertEqual(
            engine.adminCall("POST", "/__admin/requests/count", body: #"{"method":"POST","path":"/orders"}"#).text,
            #"{"count":2}"#)
        XCTAssertEqual(
            engine.adminCall("POST", "/__admin/requests/count", body: #"{"request":{"body":{"jsonSubset":{"qty":2}}}}"#)
                .text, #"{"count":1}"#)
        XCTAssertEqual(
            engine.adminCall("POST", "/__admin/requests/count", body: #"{"request":{"query":{"x":{"present":true}}}}"#)
                .text, #"{"count":1}"#)
        XCTAssertEqual(engine.adminCall("POST", "/__admin/requests/count", body: "{}").text, #"{"count":3}"#)
    }

    func testCountRequestsErrors() throws {
        let engine = try makeEngine(stubs)
        let malformed = engine.adminCall("POST", "/__admin/requests/count", body: "{nope")
        XCTAssertEqual(malformed.status, 400)
        XCTAssertTrue((malformed.jsonObject["error"] as? String ?? "").contains("body is not JSON"))
        let invalid = engine.adminCall("POST", "/__admin/requests/count", body: #"{"request":{"pathPatern":"/x"}}"#)
        XCTAssertEqual(invalid.status, 400)
        let errors = invalid.jsonObject["errors"] as? [[String: Any]] ?? []
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?["path"] as? String, "request.pathPatern")
        XCTAssertEqual(errors.first?["suggestion"] as? String, "pathPattern")
        XCTAssertEqual(errors.first?["file"] as? String, "<admin>")
        XCTAssertEqual(errors.first?["line"] as? Int, 1)
        XCTAssertEqual(errors.first?["column"] as? Int, 13)
    }

    func testListStubsShowsTheirState() throws {
        let engine = try makeEngine(stubs)
        _ = engine.get("/posts")
        var listed = engine.adminCall("GET", "/__admin/stubs").jsonObject["stubs"] as? [[String: Any]] ?? []
        XCTAssertEqual(listed.map { $0["id"] as? String }, ["posts", "login", "me"])
        XCTAssertEqual(listed[0]["nextResponseIndex"] as? Int, 1)
        XCTAssertEqual(listed[0]["timesServed"] as? Int, 1)
        XCTAssertEqual(listed[0]["exhausted"] as? Bool, false)
        XCTAssertEqual(listed[0]["responses"] as? Int, 2)
        XCTAssertEqual(listed[0]["afterLast"] as? String, "exhaust")
        XCTAssertEqual(listed[0]["file"] as? String, "test.json")
        XCTAssertEqual((listed[0]["request"] as? [String: String]), ["method": "GET", "path": "/posts"])
        XCTAssertTrue(listed[0]["scenario"] is NSNull)
        XCTAssertTrue(listed[0]["rateLimit"] is NSNull)
        XCTAssertEqual(listed[2]["whenState"] as? String, "LoggedIn")
        XCTAssertEqual(listed[1]["setState"] as? String, "LoggedIn")
        let rule = listed[2]["rateLimit"] as? [String: Any]
        XCTAssertEqual(rule?["limit"] as? Int, 5)
        XCTAssertEqual(rule?["window"] as? Double, 1.5)
        XCTAssertEqual(rule?["retryAfter"] as? String, "seconds")
        _ = engine.get("/posts")
        listed = engine.adminCall("GET", "/__admin/stubs").jsonObject["stubs"] as? [[String: Any]] ?? []
        XCTAssertEqual(listed[0]["exhausted"] as? Bool, true)
        XCTAssertTrue(listed[0]["nextResponseIndex"] is NSNull)
    }

    func testPostStubsAddsAndReplacesByID() throws {
        let engine = try makeEngine(stubs)
        _ = engine.get("/posts")
        let response = engine.adminCall(
            "POST", "/__admin/stubs",
            body: #"""
                {"stubs":[
                  {"id":"posts","request":{"path":"/posts"},"responses":[{"status":299}]},
                  {"request":{"path":"/new"},"responses":[{"status":298}]}
                ]}
                """#)
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.text, #"{"added":["admin-1"],"replaced":["posts"]}"#)
        XCTAssertEqual(
            engine.stubs.map(\.id), ["posts", "login", "me", "admin-1"], "replaced in place, added at the end")
        XCTAssertEqual(engine.get("/posts").status, 299, "the replacement starts its own sequence")
        XCTAssertEqual(engine.get("/new").status, 298)
        XCTAssertEqual(engine.stubs.last?.file, "<admin>")
    }

    func testPostedStubWithAMisspeltRequiredKeyGetsOneErrorNamingBoth() throws {
        let engine = try makeEngine(stubs)
        let response = engine.adminCall(
            "POST", "/__admin/stubs", body: #"{"stubs":[{"id":"new","responsez":[{"status":201}]}]}"#)
        XCTAssertEqual(response.status, 400)
        let errors = response.jsonObject["errors"] as? [[String: Any]] ?? []
        XCTAssertEqual(errors.count, 1, "\(errors)")
        XCTAssertEqual(
            errors.first?["message"] as? String,
            "unknown key `responsez`; did you mean `responses`? (`responses` is required)")
        XCTAssertEqual(errors.first?["path"] as? String, "stubs[0].responsez")
        XCTAssertEqual(errors.first?["column"] as? Int, 23)
        XCTAssertEqual(errors.first?["suggestion"] as? String, "responses")
        XCTAssertEqual(engine.stubs.map(\.id), ["posts", "login", "me"], "nothing was added")
    }

    func testPostStubsIsAllOrNothingWithPositionedErrors() throws {
        let engine = try makeEngine(stubs)
        let response = engine.adminCall(
            "POST", "/__admin/stubs",
            body: """
                {"stubs":[
                  {"id":"fine","responses":[{}]},
                  {"id":"bad","responses":[{"staus":200}]}
                ]}
                """)
        XCTAssertEqual(response.status, 400)
        let object = response.jsonObject
        XCTAssertEqual(
            object["error"] as? String,
            "<admin>:3:29: error: unknown key `staus`; did you mean `status`? (at stubs[1].responses[0].staus)")
        let errors = object["errors"] as? [[String: Any]] ?? []
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?["file"] as? String, "<admin>")
        XCTAssertEqual(errors.first?["line"] as? Int, 3)
        XCTAssertEqual(errors.first?["column"] as? Int, 29)
        XCTAssertEqual(errors.first?["path"] as? String, "stubs[1].responses[0].staus")
        XCTAssertEqual(errors.first?["message"] as? String, "unknown key `staus`; did you mean `status`?")
        XCTAssertEqual(errors.first?["suggestion"] as? String, "status")
        XCTAssertEqual(engine.stubs.map(\.id), ["posts", "login", "me"], "nothing was added")
        XCTAssertEqual(engine.adminCall("POST", "/__admin/stubs", body: "[").status, 400)
    }

    func testDeleteStub() throws {
        let engine = try makeEngine(stubs)
        _ = engine.send("POST", "/login")
        XCTAssertEqual(engine.adminCall("DELETE", "/__admin/stubs/posts").text, #"{"deleted":"posts"}"#)
        XCTAssertEqual(engine.stubs.map(\.id), ["login", "me"])
        XCTAssertEqual(engine.get("/posts").status, 404)
        XCTAssertEqual(engine.scenarioState("auth"), "LoggedIn", "other stubs and scenarios keep their state")
        XCTAssertEqual(engine.get("/me").status, 200)
        let missing = engine.adminCall("DELETE", "/__admin/stubs/nope")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.jsonObject["error"] as? String, "no stub with id `nope`")
        XCTAssertEqual(engine.stubs.count, 2)
    }

    func testDeleteStubWithEncodedID() throws {
        let engine = try makeEngine(#"{"stubs":[{"id":"a b/c","responses":[{}]}]}"#)
        XCTAssertEqual(engine.adminCall("DELETE", "/__admin/stubs/a%20b%2Fc").status, 200)
        XCTAssertEqual(engine.stubs.count, 0)
    }

    func testScenariosListAndSet() throws {
        let engine = try makeEngine(stubs)
        XCTAssertEqual(
            engine.adminCall("GET", "/__admin/scenarios").text,
            #"{"scenarios":[{"name":"auth","state":"Started","states":["Started","LoggedIn"],"id":"auth","possibleStates":["Started","LoggedIn"]}]}"#
        )
        XCTAssertEqual(
            engine.adminCall("PUT", "/__admin/scenarios/auth", body: #"{"state":"LoggedIn"}"#).text,
            #"{"name":"auth","state":"LoggedIn"}"#)
        XCTAssertEqual(engine.get("/me").status, 200)
        XCTAssertEqual(engine.adminCall("PUT", "/__admin/scenarios/nope", body: #"{"state":"Started"}"#).status, 404)
        let unknownState = engine.adminCall("PUT", "/__admin/scenarios/auth", body: #"{"state":"Bogus"}"#)
        XCTAssertEqual(unknownState.status, 400)
        XCTAssertEqual(
            unknownState.jsonObject["error"] as? String,
            "scenario `auth` has no state `Bogus`; states: Started, LoggedIn")
        XCTAssertEqual(engine.adminCall("PUT", "/__admin/scenarios/auth", body: "nope").status, 400)
        XCTAssertEqual(engine.adminCall("PUT", "/__admin/scenarios/auth", body: #"{"state":1}"#).status, 400)
        XCTAssertEqual(engine.adminCall("PUT", "/__admin/scenarios/auth", body: #"{"stat":"Started"}"#).status, 400)
        XCTAssertEqual(engine.scenarioState("auth"), "LoggedIn", "failed calls changed nothing")
    }

    func testResetRestoresSequencesScenariosRateLimitsAndJournal() throws {
        let clock = ManualEngineClock()
        let engine = try makeEngine(stubs, clock: clock)
        _ = engine.get("/posts")
        _ = engine.get("/posts")
        _ = engine.send("POST", "/login")
        for _ in 0..<6 { _ = engine.get("/me") }
        XCTAssertEqual(engine.get("/me").status, 429)
        XCTAssertEqual(engine.adminCall("POST", "/__admin/reset").text, #"{"reset":true}"#)
        XCTAssertEqual(engine.journalEntries.count, 0)
        XCTAssertEqual(engine.scenarioState("auth"), "Started")
        XCTAssertEqual(engine.get("/posts").status, 200)
        XCTAssertEqual(engine.stubs.count, 3, "stubs stay")
        _ = engine.send("POST", "/login")
        XCTAssertEqual(engine.get("/me").status, 200, "rate limit cleared")
        XCTAssertEqual(engine.journalEntries.first?.seq, 1)
    }

    func testUnknownPathsAndWrongMethods() throws {
        let engine = try makeEngine(stubs)
        XCTAssertEqual(engine.adminCall("GET", "/__admin/nope").status, 404)
        XCTAssertEqual(engine.adminCall("GET", "/__admin").status, 200, "the probe WireMock clients use")
        for (method, path, allow) in [
            ("POST", "/__admin/health", "GET"), ("PUT", "/__admin/requests", "GET, DELETE"),
            ("GET", "/__admin/requests/count", "POST"), ("DELETE", "/__admin/stubs", "GET, POST"),
            ("GET", "/__admin/stubs/posts", "DELETE"), ("POST", "/__admin/scenarios", "GET"),
            ("GET", "/__admin/scenarios/auth", "PUT"), ("GET", "/__admin/reset", "POST"),
            ("GET", "/__admin/reload", "POST"),
        ] {
            let response = engine.adminCall(method, path)
            XCTAssertEqual(response.status, 405, "\(method) \(path)")
            XCTAssertEqual(response.headers["Allow"], allow, "\(method) \(path)")
            XCTAssertNotNil(response.jsonObject["error"] as? String)
        }
        XCTAssertEqual(engine.adminCall("GET", "/__admin/health/").status, 200, "a trailing slash is tolerated")
    }
}
