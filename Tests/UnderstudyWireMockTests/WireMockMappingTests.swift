import XCTest
@testable import UnderstudyCore
@testable import UnderstudyWireMock
import UnderstudyCoreTestSupport

/// WireMock mappings decode into the native model and serve by WireMock's rules; unsupported
/// features are refused by name at file:line:col. (The differential suite in
/// Tests/WireMockDifferential compares against the real WireMock jar.)
final class WireMockMappingTests: XCTestCase {
    override func setUp() {
        super.setUp()
        WireMockSupport.install()
    }

    func testPriorityAndNewestFirstAmongEquals() throws {
        let engine = try makeEngine(
            """
            {"mappings": [
              {"request": {"urlPathPattern": "/p/.*"}, "response": {"status": 418}, "priority": 9},
              {"request": {"urlPath": "/p/x"}, "response": {"status": 201}},
              {"request": {"urlPath": "/p/x"}, "response": {"status": 202}},
              {"request": {"urlPath": "/p/y"}, "response": {"status": 203}, "priority": 1}
            ]}
            """)
        XCTAssertEqual(engine.get("/p/x").status, 202, "equal priorities: the mapping added last answers")
        XCTAssertEqual(engine.get("/p/y").status, 203)
        XCTAssertEqual(engine.get("/p/z").status, 418)
    }

    func testNativeStubsComeBeforeWireMockMappingsOfEqualPriority() throws {
        let native = try StubLoader.parse(
            bytes: Array(#"{"stubs": [{"request": {"path": "/x"}, "responses": [{"status": 200}]}]}"#.utf8),
            file: "n.json", root: nil)
        let wire = try StubLoader.parse(
            bytes: Array(#"{"request": {"urlPath": "/x"}, "response": {"status": 299}}"#.utf8), file: "w.json",
            root: nil)
        let engine = StubEngine(stubs: try StubSet(validating: wire.stubs + native.stubs))
        XCTAssertEqual(engine.get("/x").status, 200)
        var lower = native.stubs[0]
        lower.priority = 6
        let reordered = StubEngine(stubs: try StubSet(validating: wire.stubs + [lower]))
        XCTAssertEqual(reordered.get("/x").status, 299)
    }

    func testURLIncludesQueryAndMatchersApply() throws {
        let engine = try makeEngine(
            """
            {"request": {"method": "POST", "url": "/u?a=1",
                         "headers": {"X-Key": {"equalTo": "ABC", "caseInsensitive": true}},
                         "cookies": {"sid": {"matches": "[0-9]+"}},
                         "basicAuthCredentials": {"username": "u", "password": "p"},
                         "bodyPatterns": [{"equalToJson": {"ids": [1, 2]}, "ignoreArrayOrder": true},
                                          {"matchesJsonPath": {"expression": "$.ids[?(@ > 1)]"}}]},
             "response": {"status": 200, "statusMessage": "Fine", "body": "ok"}}
            """)
        var headers: HTTPHeaders = ["X-Key": "abc", "Cookie": "x=1; sid=42", "Authorization": "Basic dTpw"]
        let hit = engine.send("POST", "/u?a=1", headers: headers, body: #"{"ids": [2, 1]}"#)
        XCTAssertEqual(hit.status, 200)
        XCTAssertEqual(hit.reason, "Fine")
        XCTAssertEqual(engine.send("POST", "/u", headers: headers, body: #"{"ids": [2, 1]}"#).status, 404)
        headers.append(name: "Cookie", value: "sid=x")
        headers = ["X-Key": "abc", "Cookie": "sid=x", "Authorization": "Basic dTpw"]
        XCTAssertEqual(engine.send("POST", "/u?a=1", headers: headers, body: #"{"ids": [2, 1]}"#).status, 404)
    }

    func testNotAndOrMatchers() throws {
        let engine = try makeEngine(
            """
            {"mappings": [{"request": {"urlPath": "/n", "queryParameters": {"v": {"not": {"or": [{"equalTo": "a"}, {"contains": "z"}]}}}},
                           "response": {"status": 200}}]}
            """)
        XCTAssertEqual(engine.get("/n?v=b").status, 200)
        XCTAssertEqual(engine.get("/n?v=a").status, 404)
        XCTAssertEqual(engine.get("/n?v=xyz").status, 404)
        XCTAssertEqual(
            engine.get("/n").status, 200, "as in WireMock 3: `not` of matchers that need a value accepts none")
    }

    func testUnsupportedFeaturesAreRefusedByNameWithPositions() {
        let errors = loadErrors(
            """
            {"request": {"urlPath": "/x", "multipartPatterns": []},
             "response": {"chunkedDribbleDelay": {"numberOfChunks": 2, "totalDuration": 10},
                          "transformers": ["response-template", "jwt"]},
             "postServeActions": [{"name": "webhook", "parameters": {"url": "{{request.body}}"}}]}
            """, file: "mappings/m.json")
        let described = errors.map(\.description)
        XCTAssertEqual(
            described,
            [
                "mappings/m.json:1:31: error: unsupported WireMock feature `multipartPatterns`: multipart matching is not supported (at request.multipartPatterns)",
                "mappings/m.json:2:15: error: unsupported WireMock feature `chunkedDribbleDelay`: chunked dribble delays are not supported (at response.chunkedDribbleDelay)",
                "mappings/m.json:4:65: error: WireMock template `{{request.body}}` has no Understudy equivalent: a webhook reads the triggering request as `originalRequest` (`{{originalRequest.body}}`); `request` is undefined there (at postServeActions[0].parameters.url)",
            ])
    }

    func testProxyBaseUrlMapsOntoTheNativeProxy() throws {
        let root = try makeTemporaryDirectory(self)
        try write(
            """
                {"mappings": [
                  {"request": {"urlPathPattern": "/api/.*"},
                   "response": {"proxyBaseUrl": "http://127.0.0.1:9/base/", "proxyUrlPrefixToRemove": "/api",
                                "status": 200, "body": "ignored", "fixedDelayMilliseconds": 5}},
                  {"request": {"url": "/h"}, "response": {"proxyBaseUrl": "http://127.0.0.1:9", "headers": {"X": ["y", "z"]},
                    "additionalProxyRequestHeaders": {"Host": "example.org", "X-Key": ["k1", "k2"]},
                    "removeProxyRequestHeaders": ["cookie"]}},
                  {"request": {"url": "/f"}, "response": {"proxyBaseUrl": "http://127.0.0.1:9", "fault": "EMPTY_RESPONSE"}},
                  {"request": {"url": "/p"}, "response": {"proxyBaseUrl": "ftp://127.0.0.1"}},
                  {"request": {"url": "/q"}, "response": {"status": 200, "proxyUrlPrefixToRemove": "/q"}}
                ]}
            """, to: root + "/mappings/m.json")
        let set = try StubLoader.load(paths: [root])
        XCTAssertEqual(set.stubs.count, 2)
        let response = try XCTUnwrap(set.stubs.first?.responses.first)
        XCTAssertEqual(response.proxy, ProxySetting(to: "http://127.0.0.1:9/base", stripPrefix: "/api"))
        XCTAssertEqual(response.delayMs, 5)
        XCTAssertTrue(response.body.isEmpty)
        XCTAssertEqual(
            response.proxy?.upstreamURL(path: "/api/users/7", query: "a=1&b=2"),
            "http://127.0.0.1:9/base/users/7?a=1&b=2")
        XCTAssertTrue(
            set.warnings.contains { $0.message.contains("`body` ignored: a `proxyBaseUrl` response answers") },
            "\(set.warnings)")
        // A proxied request through the engine alone: the answer carries what the transport forwards.
        let answer = StubEngine(stubs: set).get("/api/x?y=1")
        XCTAssertEqual(answer.proxy?.url, "http://127.0.0.1:9/base/x?y=1")
        XCTAssertEqual(set.skipped.map(\.index), [2, 3, 4])
        let reasons = set.skipped.map(\.reason)
        XCTAssertTrue(reasons[0].contains("`fault` beside `proxyBaseUrl` is not supported"), reasons[0])
        XCTAssertTrue(reasons[1].contains("`proxyBaseUrl` must be an http:// or https:// URL"), reasons[1])
        XCTAssertTrue(reasons[2].contains("`proxyUrlPrefixToRemove` needs `proxyBaseUrl`"), reasons[2])
        // convert-wiremock writes the native `proxy`, which loads back to the same setting.
        let converted = WireMockConverter.convert(set.stubs)
        let stub = try XCTUnwrap(converted.document["stubs"]?.arrayValue?.last)
        XCTAssertEqual(
            stub["responses"]?.arrayValue?.first,
            .object([
                JSONMember(
                    "proxy", .object([JSONMember("to", "http://127.0.0.1:9/base"), JSONMember("stripPrefix", "/api")])),
                JSONMember("delayMs", 5),
            ]))
        let reloaded = try StubLoader.parse(bytes: Array(converted.document.jsonBytes), file: "c.json", root: nil)
        XCTAssertEqual(reloaded.stubs.last?.responses.first?.proxy, response.proxy)

        // The header keys, as WireMock 2.35.1 treats them (checked against the jar): the mapping's
        // `headers` are added to the upstream's answer; `additionalProxyRequestHeaders` replace the
        // client's fields (first value only, `Host` too); `removeProxyRequestHeaders` (WireMock 3) drops them.
        let headed = try XCTUnwrap(set.stubs.last?.responses.first?.proxy)
        XCTAssertEqual(
            headed.addResponseHeaders, HTTPHeaders([.init(name: "X", value: "y"), .init(name: "X", value: "z")]))
        XCTAssertEqual(headed.setHeaders, ["Host": "example.org", "X-Key": "k1"])
        XCTAssertEqual(headed.removeHeaders, ["cookie"])
        let forwarded = try XCTUnwrap(
            StubEngine(stubs: set).get("/h", headers: ["X-Key": "client", "Cookie": "c=1", "X-Kept": "1"]).proxy)
        XCTAssertEqual(forwarded.headers, ["X-Kept": "1", "Host": "example.org", "X-Key": "k1"])
        XCTAssertEqual(forwarded.addResponseHeaders, headed.addResponseHeaders)
        let convertedHeaded = try XCTUnwrap(converted.document["stubs"]?.arrayValue?.first)
        XCTAssertEqual(
            convertedHeaded["responses"]?.arrayValue?.first?["proxy"],
            .object([
                JSONMember("to", "http://127.0.0.1:9"),
                JSONMember("setHeaders", .object([JSONMember("Host", "example.org"), JSONMember("X-Key", "k1")])),
                JSONMember("removeHeaders", .array(["cookie"])),
                JSONMember("addResponseHeaders", .object([JSONMember("X", .array(["y", "z"]))])),
            ]))
        // Written newest first, as WireMock matches.
        XCTAssertEqual(reloaded.stubs.first?.responses.first?.proxy, headed)
    }

    func testResponseTemplateMapsTheDirectEquivalents() throws {
        let engine = try makeEngine(
            """
            {"request": {"urlPathPattern": "/w/.*"},
             "response": {"status": 200, "transformers": ["response-template"],
                          "headers": {"X-Echo": "{{request.headers.X-A}}"},
                          "jsonBody": {"path": "{{request.path}}", "url": "{{request.url}}", "q": "{{request.query.q}}", "m": "{{request.method}}", "b": "{{{request.body}}}"}}}
            """)
        let response = engine.send("POST", "/w/1?q=z", headers: ["X-A": "a"], body: "hi")
        // `{{…}}` escapes for HTML as WireMock's Handlebars does (`=` is `&#x3D;`); `{{{…}}}` does not.
        XCTAssertEqual(response.text, #"{"path":"/w/1","url":"/w/1?q&#x3D;z","q":"z","m":"POST","b":"hi"}"#)
        XCTAssertEqual(response.headers["X-Echo"], "a")
    }

    func testTyposSuggestAndBadValuesPointAtThemselves() {
        let errors = loadErrors(
            """
            {"mappings": [
              {"request": {"urlPath": "/x", "queryParameter": {}},
               "response": {"status": 200, "fault": "CONNECTION_RESET"}}
            ]}
            """)
        XCTAssertEqual(
            errors.map(\.description),
            [
                "bad.json:2:33: error: unknown key `queryParameter`; did you mean `queryParameters`? (at mappings[0].request.queryParameter)",
                "bad.json:3:41: error: unknown WireMock fault `CONNECTION_RESET`; did you mean `CONNECTION_RESET_BY_PEER`? (expected one of `CONNECTION_RESET_BY_PEER`, `EMPTY_RESPONSE`, `MALFORMED_RESPONSE_CHUNK`, `RANDOM_DATA_THEN_CLOSE`) (at mappings[0].response.fault)",
            ])
    }

    func testFaultsMapOntoNativeFaults() throws {
        let engine = try makeEngine(
            """
            {"mappings": [
              {"request": {"url": "/a"}, "response": {"fault": "EMPTY_RESPONSE"}},
              {"request": {"url": "/b"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}},
              {"request": {"url": "/c"}, "response": {"fault": "RANDOM_DATA_THEN_CLOSE"}},
              {"request": {"url": "/d"}, "response": {"fault": "MALFORMED_RESPONSE_CHUNK"}}
            ]}
            """)
        XCTAssertEqual(
            ["/a", "/b", "/c", "/d"].map { engine.get($0).fault },
            [.emptyResponse, .connectionReset, .randomDataThenClose, .malformedResponseChunk])
    }

    func testDelayDistributionsAreSeededAndJournaled() throws {
        func delays(seed: UInt64) throws -> [Double] {
            let set = try StubLoader.parse(
                bytes: Array(
                    """
                    {"stubs": [{"request": {"path": "/slow"}, "responses": [{"delayMs": {"lognormal": {"median": 80, "sigma": 0.5, "max": 400}}}]},
                               {"request": {"path": "/even"}, "responses": [{"delayMs": {"uniform": [10, 20]}}]}]}
                    """.utf8), file: "t.json", root: nil)
            let engine = StubEngine(
                stubs: set, configuration: EngineConfiguration(clock: ManualEngineClock(), seed: seed))
            let slow = (0..<200).map { _ in engine.get("/slow").delayMs }
            let even = (0..<200).map { _ in engine.get("/even").delayMs }
            XCTAssertTrue(slow.allSatisfy { $0 > 0 && $0 <= 400 })
            XCTAssertTrue(even.allSatisfy { (10...20).contains($0) })
            let journaled = engine.journalObjects.prefix(3).map { $0["delayMs"] as? Double }
            XCTAssertEqual(
                journaled.map { $0.map { ($0 * 1000).rounded() / 1000 } },
                slow.prefix(3).map { Double(Int($0 * 1000)) / 1000 })
            let sorted = slow.sorted()
            XCTAssertEqual(sorted[100], 80, accuracy: 16, "the median of 200 draws is near the configured median")
            return slow + even
        }
        XCTAssertEqual(try delays(seed: 7), try delays(seed: 7))
        XCTAssertNotEqual(try delays(seed: 7), try delays(seed: 8))
    }

    func testWireMockDelaysAddFixedAndDistribution() throws {
        let engine = try makeEngine(
            """
            {"request": {"url": "/d"}, "response": {"fixedDelayMilliseconds": 100, "delayDistribution": {"type": "uniform", "lower": 5, "upper": 6}}}
            """)
        let delay = engine.get("/d").delayMs
        XCTAssertTrue((105...106).contains(delay), "\(delay)")
    }

    func testJSONPathSubset() throws {
        let document = JSONValue.parse(
            Array(#"{"a": {"b": [{"c": 1, "s": "x"}, {"c": 7, "s": "y"}]}, "n": null}"#.utf8))!
        XCTAssertEqual(try JSONPathExpression("$.a.b[1].c").select(document), [.number("7")])
        XCTAssertEqual(try JSONPathExpression("$['a']['b'][-1].s").select(document), [.string("y")])
        XCTAssertEqual(try JSONPathExpression("$..c").select(document), [.number("1"), .number("7")])
        XCTAssertEqual(try JSONPathExpression("$.a.b[?(@.c > 2)].s").select(document), [.string("y")])
        XCTAssertTrue(try JSONPathExpression("$.a.b[*].s").accepts(document, .equals("y")))
        XCTAssertFalse(try JSONPathExpression("$.n").accepts(document, nil), "a null value selects nothing")
        XCTAssertThrowsError(try JSONPathExpression("$.a[1:2]"))
        XCTAssertThrowsError(try JSONPathExpression("a.b"))
    }

    func testWireMockRootSkipsBodyFilesAndResolvesThem() throws {
        let root = try makeTemporaryDirectory(self)
        try write(
            #"{"request": {"url": "/f"}, "response": {"bodyFileName": "data/x.json"}}"#, to: root + "/mappings/f.json")
        try write(#"{"not": "a mapping"}"#, to: root + "/__files/data/x.json")
        let set = try StubLoader.load(paths: [root])
        // The directory `data` is refused as Jetty refuses it (403), at `/data` and `/data/`.
        XCTAssertEqual(
            set.stubs.map(\.file),
            [root + "/mappings/f.json", root + "/__files/data/x.json", root + "/__files/data", root + "/__files/data"])
        XCTAssertEqual(set.stubs[2].responses[0].status, 403)
        XCTAssertEqual(String(decoding: set.stubs[0].responses[0].body, as: UTF8.self), #"{"not": "a mapping"}"#)
        try write(
            #"{"request": {"url": "/g"}, "response": {"bodyFileName": "../../etc/passwd"}}"#,
            to: root + "/mappings/g.json")
        XCTAssertEqual(try StubLoader.load(paths: [root]).skipped.map(\.file), [root + "/mappings/g.json"])
        XCTAssertThrowsError(try StubLoader.load(paths: [root], options: StubLoadOptions(strict: true))) { error in
            let failure = error as! StubLoadFailure
            XCTAssertTrue(failure.errors[0].message.contains("`bodyFileName`"), failure.errors[0].message)
            XCTAssertEqual(failure.errors[0].jsonPath, "response.bodyFileName")
        }
    }

    func testARootLoadsAsWireMockLoadsIt() throws {
        let root = try makeTemporaryDirectory(self)
        try write(
            """
            {"mappings": [
              {"request": {"url": "/proxied"}, "response": {"proxyBaseUrl": "http://127.0.0.1:9", "chunkedDribbleDelay": {"numberOfChunks": 2, "totalDuration": 10}}},
              {"request": {"url": "/s"}, "response": {"status": "201", "transformers": ["absent-extension"]}},
              {"request": {"url": "/first", "url": "/d"}, "response": {"body": "a", "body": "b"}},
              {"request": {"url": "/m"}, "response": {"bodyFileName": "missing.json"}},
              {"request": {"url": "/b", "basicAuth": {"username": "u", "password": "p"}},
               "response": {"status": 204}}
            ]}
            """, to: root + "/mappings/m.json")
        try write(#"{"not": "read"}"#, to: root + "/beside/x.json")  // WireMock reads only mappings/
        try write("p { }", to: root + "/__files/css/site.css")
        try write("<p>i</p>", to: root + "/__files/css/index.html")
        let set = try StubLoader.load(paths: [root])
        XCTAssertEqual(set.skipped.map(\.index), [0])
        XCTAssertTrue(set.skipped[0].reason.contains("chunked dribble delays"), set.skipped[0].reason)
        XCTAssertEqual(
            set.warnings.map(\.jsonPath).sorted(),
            [
                "mappings[1].response.status", "mappings[1].response.transformers", "mappings[2].request.url",
                "mappings[2].response.body", "mappings[3].response.bodyFileName",
            ])
        XCTAssertTrue(set.warningLines.allSatisfy { $0.description.contains(": warning: ") })
        let engine = StubEngine(stubs: set)
        XCTAssertEqual(engine.get("/s").status, 201)
        XCTAssertEqual(engine.get("/d").text, "b")
        XCTAssertEqual(engine.get("/first").status, 404)
        let missing = engine.get("/m")
        XCTAssertEqual(missing.status, 500)
        XCTAssertTrue(missing.text.contains("java.io.FileNotFoundException"), missing.text)
        XCTAssertEqual(engine.get("/b", headers: ["Authorization": "basic dTpw"]).status, 204)
        XCTAssertEqual(engine.get("/b", headers: ["Authorization": "Basic dTpx"]).status, 404)
        let css = engine.get("/css/site.css?v=1")
        XCTAssertEqual(css.status, 200)
        XCTAssertEqual(css.headers["Content-Type"], "text/css")
        XCTAssertEqual(engine.get("/css").text, "<p>i</p>")
        XCTAssertEqual(engine.get("/css/").text, "<p>i</p>")
        XCTAssertEqual(engine.send("POST", "/css/site.css").status, 404, "files are served to GET only")
        let miss = engine.get("/proxied")
        XCTAssertEqual(miss.status, 404)
        XCTAssertTrue(
            miss.text.contains(
                "mappings/m.json mapping 0: unsupported WireMock feature `chunkedDribbleDelay`"), miss.text)
        XCTAssertFalse(engine.get("/elsewhere").text.contains("Skipped WireMock mappings"))
        let health = jsonObject(engine.adminCall("GET", "/__admin/health").body)
        let skipped = health["skipped"] as? [[String: Any]]
        XCTAssertEqual(skipped?.count, 1)
        XCTAssertEqual(skipped?.first?["file"] as? String, root + "/mappings/m.json")
        XCTAssertEqual(skipped?.first?["index"] as? Int, 0)
        XCTAssertEqual(skipped?.first?["line"] as? Int, 2)
        XCTAssertThrowsError(try StubLoader.load(paths: [root], options: StubLoadOptions(strict: true))) { error in
            XCTAssertEqual(
                (error as! StubLoadFailure).errors.map(\.jsonPath),
                ["mappings[0].response.chunkedDribbleDelay"])
        }
    }

    func testMappingsWithoutAnIDGetOneDerivedFromFileAndIndex() throws {
        let first = try makeTemporaryDirectory(self), second = try makeTemporaryDirectory(self)
        for root in [first, second] {
            try write(
                #"{"mappings": [{"request": {"url": "/a"}, "response": {}}, {"request": {"url": "/b"}, "response": {}}]}"#,
                to: root + "/mappings/m.json")
        }
        let ids = try StubLoader.load(paths: [first]).stubs.map(\.id)
        XCTAssertEqual(ids, try StubLoader.load(paths: [second]).stubs.map(\.id), "the same wherever the root is")
        XCTAssertEqual(Set(ids).count, 2)
        for id in ids {
            XCTAssertNotNil(UUID(uuidString: id), id)
            XCTAssertEqual(Array(id)[14], "8", "a version-8 (name-based) UUID: \(id)")
        }
        let listed = try StubLoader.load(paths: [first]).stubs.compactMap { WireMockMapping.of($0)?.json["id"] }
        XCTAssertEqual(listed, ids.map(JSONValue.string))
    }

    func testConverterReproducesOrderAndNamesWhatItDrops() throws {
        let set = try StubLoader.parse(
            bytes: Array(
                """
                {"mappings": [
                  {"request": {"urlPath": "/x"}, "response": {"status": 201}, "metadata": {"team": "a"}},
                  {"request": {"urlPath": "/x"}, "response": {"status": 202, "fixedDelayMilliseconds": 5,
                                                                "delayDistribution": {"type": "lognormal", "median": 5, "sigma": 0.1}}}
                ]}
                """.utf8), file: "m.json", root: nil)
        let result = WireMockConverter.convert(set.stubs)
        XCTAssertEqual(result.notes.count, 2, "\(result.notes)")
        let reloaded = try StubLoader.parse(bytes: result.document.jsonBytes, file: "converted.json", root: nil)
        XCTAssertEqual(StubEngine(stubs: reloaded).get("/x").status, 202)
    }
}
