import Foundation
import Testing
import UnderstudyTesting

/// The request fields and matchers added with the WireMock work (`priority`, `url`, `urlPattern`,
/// `cookies`, the newer value and body matchers): their JSON, the admin listing, and behaviour —
/// for each, a request that matches only because of it and one it refuses.
extension StubBuilderTests {
    @Test func newerMatchersHaveTheirDocumentedShape() {
        let stub = Stub.request("GET", urlPattern: "/u\\?id=[0-9]+").priority(2).cookie("sid", "abc")
            .header("A", .allOf([.equalsIgnoringCase("x"), .not(.doesNotContain("y"))])).query(
                "b", .anyOf(["1", .doesNotMatch("z+")])
            )
            .body(
                .anyOf([
                    .jsonEquals([1, 2], ignoreArrayOrder: true), .jsonEquals(["a": 1], ignoreExtraElements: true),
                    .jsonEquals(nil),
                    .jsonPath("$.a"), .jsonPath("$.b", .contains("q")), .binary(Data([0, 255])),
                    .not(.allOf([.equalsIgnoringCase("E"), .doesNotContain("c"), .doesNotMatch("m")])),
                ]))
        #expect(
            stub.json.jsonText
                == #"{"request":{"method":"GET","urlPattern":"/u\\?id=[0-9]+","cookies":{"sid":"abc"},"headers":{"A":{"allOf":[{"equalsIgnoringCase":"x"},{"not":{"doesNotContain":"y"}}]}},"query":{"b":{"anyOf":["1",{"doesNotMatch":"z+"}]}},"body":{"anyOf":[{"jsonEquals":{"value":[1,2],"ignoreArrayOrder":true}},{"jsonEquals":{"value":{"a":1},"ignoreExtraElements":true}},{"jsonEquals":{"value":null}},{"jsonPath":"$.a"},{"jsonPath":{"expression":"$.b","matcher":{"contains":"q"}}},{"binary":"AP8="},{"not":{"allOf":[{"equalsIgnoringCase":"E"},{"doesNotContain":"c"},{"doesNotMatch":"m"}]}}]}},"priority":2}"#
        )
        #expect(Stub.request(nil, url: "/s?a=1").json.jsonText == #"{"request":{"url":"/s?a=1"}}"#)
    }

    /// A value matcher read back from its JSON is the matcher that wrote it (`RequestMatcher` is
    /// `Codable` through it).
    @Test func valueMatchersReadBackFromTheirJSON() throws {
        let matchers: [ValueMatcher] = [
            "x", .equalsIgnoringCase("a"), .contains("b"), .doesNotContain("c"), .matches("d+"),
            .doesNotMatch("e+"), .present, .absent, .allOf(["f", .present]),
            .anyOf([.not(.contains("g"))]), .not(.absent),
        ]
        for matcher in matchers {
            #expect(ValueMatcher(json: matcher.json) == matcher, "\(matcher.json)")
            let coded = try JSONDecoder().decode(ValueMatcher.self, from: JSONEncoder().encode(matcher))
            #expect(coded == matcher, "\(matcher.json) through Codable")
        }
    }

    /// The new request fields as `GET /__admin/stubs` lists them (`priority` is not listed: the
    /// behaviour test covers it).
    @Test func newerRequestFieldsSurviveTheListing() async throws {
        let understudy = try #require(Understudy.current)
        let stubs = [
            Stub.request("GET", url: "/rl/a?x=1&y=2").id("rl-url").cookie("sid", .equals("abc")).cookie(
                "theme", .absent
            )
            .header("X-V", .allOf([.equalsIgnoringCase("Fast"), .not(.doesNotContain("as"))]))
            .query("y", .anyOf(["2", .doesNotMatch("[a-z]+")])).respond(.status(200)),
            Stub.request("POST", urlPattern: "/rl/b\\?id=[0-9]+").id("rl-pattern").priority(3)
                .body(
                    .allOf([.equalsIgnoringCase("X"), .doesNotContain("y"), .doesNotMatch("z+"), .not(.contains("w"))])
                )
                .respond(.status(200)),
            Stub.post("/rl/c").id("rl-json").body(
                .anyOf([
                    .jsonEquals(["a": [1, 2]], ignoreArrayOrder: true, ignoreExtraElements: true),
                    .jsonEquals([3], ignoreArrayOrder: true),
                    .jsonPath("$.items[0].id"), .jsonPath("$.sku", .matches("A-[0-9]+")),
                    .binary(Data([0, 1, 2, 255])),
                ])
            ).respond(.status(200)),
        ]
        try await understudy.install(stubs)
        let listing = try await Exchange.adminJSON("/__admin/stubs", on: understudy)["stubs"]?.arrayValue ?? []
        for stub in stubs {
            let id = stub.json["id"]!
            let listed = try #require(listing.first { $0["id"] == id }, "\(id) listed")
            #expect(
                listed["request"] == stub.json["request"],
                "\(id): built \(stub.json["request"]!), listed \(listed["request"]?.jsonText ?? "nothing")")
        }
    }

    /// For each new field: a request it lets through (200) and one it refuses (404, nothing else
    /// matches), installed together so each stub only sees its own path.
    @Test func eachNewerMatcherLetsThroughAndRefuses() async throws {
        let understudy = try #require(Understudy.current)
        struct Probe {
            var method = "GET"
            var target: String
            var headers: [String: String] = [:]
            var body: Data? = nil
        }
        func post(_ target: String, _ body: String) -> Probe {
            Probe(method: "POST", target: target, body: Data(body.utf8))
        }
        func header(_ target: String, _ value: String) -> Probe { Probe(target: target, headers: ["X-V": value]) }
        let cases: [(stub: Stub, accepted: Probe, refused: Probe)] = [
            (
                Stub.request("GET", url: "/m/url?a=1&b=2"), Probe(target: "/m/url?a=1&b=2"),
                Probe(target: "/m/url?b=2&a=1")
            ),
            (
                Stub.request(nil, urlPattern: "/m/up\\?id=[0-9]+"), Probe(target: "/m/up?id=42"),
                Probe(target: "/m/up?id=x")
            ),
            (
                Stub.get("/m/cookie").cookie("sid", "abc"),
                Probe(target: "/m/cookie", headers: ["Cookie": "theme=dark; sid=abc"]),
                Probe(target: "/m/cookie", headers: ["Cookie": "sid=abd"])
            ),
            (
                Stub.get("/m/v/eic").header("X-V", .equalsIgnoringCase("Fast")), header("/m/v/eic", "FAST"),
                header("/m/v/eic", "faster")
            ),
            (
                Stub.get("/m/v/dnc").header("X-V", .doesNotContain("bad")), header("/m/v/dnc", "good"),
                header("/m/v/dnc", "a bad one")
            ),
            (
                Stub.get("/m/v/dnm").query("q", .doesNotMatch("[0-9]+")), Probe(target: "/m/v/dnm?q=12a"),
                Probe(target: "/m/v/dnm?q=12")
            ),
            (
                Stub.get("/m/v/all").header("X-V", .allOf([.contains("a"), .contains("b")])), header("/m/v/all", "ab"),
                header("/m/v/all", "a")
            ),
            (Stub.get("/m/v/any").header("X-V", .anyOf(["x", "y"])), header("/m/v/any", "y"), header("/m/v/any", "z")),
            (
                Stub.get("/m/v/not").header("X-V", .not(.contains("x"))), header("/m/v/not", "abc"),
                header("/m/v/not", "axc")
            ),
            (
                Stub.post("/m/b/eic").body(.equalsIgnoringCase("Hello")), post("/m/b/eic", "hELLO"),
                post("/m/b/eic", "hello!")
            ),
            (
                Stub.post("/m/b/dnc").body(.doesNotContain("secret")), post("/m/b/dnc", "public"),
                post("/m/b/dnc", "a secret")
            ),
            (Stub.post("/m/b/dnm").body(.doesNotMatch("[0-9]+")), post("/m/b/dnm", "12a"), post("/m/b/dnm", "123")),
            (
                Stub.post("/m/b/order").body(.jsonEquals(["a": [1, 2, 3]], ignoreArrayOrder: true)),
                post("/m/b/order", #"{"a":[3,1,2]}"#), post("/m/b/order", #"{"a":[1,2]}"#)
            ),
            (
                Stub.post("/m/b/extra").body(.jsonEquals(["a": 1], ignoreExtraElements: true)),
                post("/m/b/extra", #"{"b":2,"a":1}"#), post("/m/b/extra", #"{"a":2,"b":2}"#)
            ),
            (
                Stub.post("/m/b/path").body(.jsonPath("$.items[0].id")), post("/m/b/path", #"{"items":[{"id":5}]}"#),
                post("/m/b/path", #"{"items":[]}"#)
            ),
            (
                Stub.post("/m/b/pathm").body(.jsonPath("$.sku", .matches("A-[0-9]+"))),
                post("/m/b/pathm", #"{"sku":"A-12"}"#),
                post("/m/b/pathm", #"{"sku":"B-1"}"#)
            ),
            (
                Stub.post("/m/b/bin").body(.binary(Data([0, 1, 2, 255]))),
                Probe(method: "POST", target: "/m/b/bin", body: Data([0, 1, 2, 255])),
                Probe(method: "POST", target: "/m/b/bin", body: Data([0, 1, 2, 254]))
            ),
            (
                Stub.post("/m/b/all").body(.allOf([.contains("a"), .contains("b")])), post("/m/b/all", "ba"),
                post("/m/b/all", "a")
            ),
            (
                Stub.post("/m/b/any").body(.anyOf([.equals("x"), .jsonPath("$.y")])), post("/m/b/any", #"{"y":1}"#),
                post("/m/b/any", "z")
            ),
            (Stub.post("/m/b/not").body(.not(.contains("x"))), post("/m/b/not", "abc"), post("/m/b/not", "axc")),
        ]
        try await understudy.install(cases.map { $0.stub.respond(.status(200)) })
        for (stub, accepted, refused) in cases {
            for (probe, expected) in [(accepted, 200), (refused, 404)] {
                let status = try await Exchange.send(
                    probe.method, probe.target, to: understudy, data: probe.body,
                    headers: probe.headers
                ).response.statusCode
                #expect(
                    status == expected, "\(stub.json["request"]!) with \(probe.method) \(probe.target) \(probe.headers)"
                )
            }
        }
        let unmatched = try await understudy.admin.requests().filter { !$0.matched }
        #expect(unmatched.count == cases.count, "exactly the refused requests went unmatched")
        await withKnownIssue {
            await understudy.assertNoUnmatchedRequests()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("request(s) matched no stub") }
        }
    }

    /// `priority`: the later stub wins only because of it; without it load order decides.
    @Test func priorityDecidesBetweenStubsThatBothMatch() async throws {
        let understudy = try #require(Understudy.current)
        try await understudy.install(
            Stub.get("/m/prio").id("first").respond(.status(200)),
            Stub.get("/m/prio").id("preferred").priority(1).respond(.status(201)),
            Stub.get("/m/order").id("loaded-first").respond(.status(200)),
            Stub.get("/m/order").id("loaded-second").respond(.status(201))
        )
        #expect(try await Exchange.send("GET", "/m/prio", to: understudy).response.statusCode == 201)
        #expect(try await Exchange.send("GET", "/m/order", to: understudy).response.statusCode == 200)
    }
}
