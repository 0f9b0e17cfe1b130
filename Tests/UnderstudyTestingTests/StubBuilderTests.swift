import Foundation
import Testing
import UnderstudyTesting

/// Typed stubs: the JSON they produce, every field surviving the trip into a session (the admin
/// listing for the stub's own fields, the answers and the journal for response fields), and
/// refusals that name the Swift line.
@Suite("UnderstudyTesting: typed stubs", .understudy())
struct StubBuilderTests {
    @Test func producesTheStubFormatInCallOrder() {
        let stub = Stub.get("/weather").id("w").query("city", "Oslo")
            .respond(.status(503).retryAfter(2), .json(["temp": 21]))
            .times(3)
            .afterLast(.exhaust)
        #expect(
            stub.json.jsonText
                == #"{"request":{"method":"GET","path":"/weather","query":{"city":"Oslo"}},"id":"w","responses":[{"status":503,"retryAfter":2},{"json":{"temp":21},"times":3}],"afterLast":"exhaust"}"#
        )
    }

    /// Template and streaming fields (issue 15): their JSON shape, as docs/test-kit.md documents it.
    @Test func templateAndStreamingFieldsHaveTheirDocumentedShape() {
        let response = StubResponse.text("{{server.url}}/next").templated().statusMessage("Slow Down")
            .dribble(chunks: 4, overMilliseconds: 300).bytesPerSecond(10)
            .events([.init(event: "tick", data: "1", id: "a", retry: 500, comment: "c", delayMs: 20), .init(data: "2")])
            .delay(.uniform(min: 10, max: 20)).fault(.randomDataThenClose)
        #expect(
            response.json.jsonText
                == #"{"body":"{{server.url}}/next","template":true,"statusMessage":"Slow Down","dribble":{"chunks":4,"overMs":300},"bytesPerSecond":10,"events":[{"event":"tick","data":"1","id":"a","retry":500,"comment":"c","delayMs":20},{"data":"2"}],"delayMs":{"uniform":[10,20]},"fault":"random-data-then-close"}"#
        )
        #expect(
            StubResponse.status(200).delay(.lognormal(median: 50, sigma: 0.4, max: 900)).json.jsonText
                == #"{"status":200,"delayMs":{"lognormal":{"median":50,"sigma":0.4,"max":900}}}"#)
    }

    /// Every stub-level and request field, compared with what `GET /__admin/stubs` lists.
    @Test func everyStubAndRequestFieldSurvivesTheListing() async throws {
        let understudy = try #require(Understudy.current)
        let stubs = [
            Stub.post("/rt/a").id("rt-a").description("all request matchers")
                .query("q", "1").query("dry", .absent).query("sort", .contains("asc")).query("page", .matches("[0-9]+"))
                .query("debug", .present)
                .header("X-Key", .present).header("Content-Type", .contains("json")).header("X-Exact", .equals("yes"))
                .body(.jsonSubset(["items": [["sku": "A-1"]]]))
                .respond(.status(201)).afterLast(.exhaust),
            Stub.request(nil, pathPattern: "/rt/b/[0-9]+").id("rt-b").header("Authorization", .matches("Bearer .+"))
                .body(.contains("x")).scenario("rt", whenState: "Started", setState: "Next")
                .respond(.status(204)).afterLast(.cycle),
            Stub.get("/rt/c").id("rt-c").rateLimit(2, per: 1.5, retryAfter: .fractional, algorithm: .tokenBucket)
                .respond(.status(200)).afterLast(.repeat),
            Stub.put("/rt/d").id("rt-d").body(.equals("exact")).scenario("rt").respond(.status(200)),
            Stub.patch("/rt/e").id("rt-e").body(.matches("a+")).scenario("rt", setState: "Started").respond(
                .status(200)),
            Stub.delete("/rt/f").id("rt-f").body(.json(["a": 1, "b": [true]])).rateLimit(
                5, per: 60, retryAfter: .httpDate
            ).respond(.status(200)),
            Stub.head("/rt/g").id("rt-g").rateLimit(1, per: 1, retryAfter: .seconds, algorithm: .slidingWindow).respond(
                .status(200)),
            Stub.get("/rt/i").id("rt-i").rateLimit(1, per: 60, headers: .github, status: 403, name: "search").respond(
                .status(200)),
            Stub.get("/rt/j").id("rt-j").rateLimit(
                2, per: 1, retryAfter: Stub.RateLimitRetryAfter.none, headers: .xRateLimit, status: 503
            ).respond(.status(200)),
            Stub.any().id("rt-h").respond(.status(404)),
        ]
        let added = try await understudy.install(stubs)
        #expect(added.added == stubs.map { $0.json["id"]!.stringValue! })
        let listing = try await Exchange.adminJSON("/__admin/stubs", on: understudy)["stubs"]?.arrayValue ?? []
        #expect(listing.count == stubs.count)
        for stub in stubs {
            let id = stub.json["id"]!
            let listed = try #require(listing.first { $0["id"] == id }, "\(id) listed")
            for key in ["request", "description", "afterLast", "scenario", "whenState", "setState", "rateLimit"] {
                guard let built = stub.json[key] else { continue }
                // The listing adds the rate limit's defaults (its algorithm, say): what was built must be in it.
                let survived = key == "rateLimit" ? listed[key]?.contains(subset: built) == true : listed[key] == built
                #expect(survived, "\(id) \(key): built \(built), listed \(listed[key]?.jsonText ?? "nothing")")
            }
            #expect(listed["responses"]?.intValue == stub.json["responses"]?.arrayValue?.count)
        }
    }

    /// The rate limit's dialect, refusal status and refusal body, seen from the client.
    @Test func rateLimitDialectAndRefusalReachTheClient() async throws {
        let understudy = try #require(Understudy.current)
        try await understudy.install(
            Stub.get("/rt/github").id("rt-github")
                .rateLimit(
                    1, per: 60, headers: .github, status: 403, refusal: .json(["message": "API rate limit exceeded"])
                )
                .respond(.status(200))
        )
        let allowed = try await Exchange.send("GET", "/rt/github", to: understudy)
        #expect(allowed.response.statusCode == 200)
        #expect(allowed.response.value(forHTTPHeaderField: "X-RateLimit-Remaining") == "0")
        #expect(allowed.response.value(forHTTPHeaderField: "X-RateLimit-Resource") == "core")
        let refused = try await Exchange.send("GET", "/rt/github", to: understudy)
        #expect(refused.response.statusCode == 403)
        #expect(refused.response.value(forHTTPHeaderField: "Retry-After") == nil)
        #expect(refused.response.value(forHTTPHeaderField: "X-RateLimit-Used") == "1")
        #expect(String(decoding: refused.body, as: UTF8.self) == #"{"message":"API rate limit exceeded"}"#)
        #expect(refused.response.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    /// Every response field, seen from the client and the journal.
    @Test func everyResponseFieldReachesTheClient() async throws {
        let understudy = try #require(Understudy.current)
        try await understudy.install(
            Stub.get("/rt/seq").id("rt-seq").respond(
                .status(503).retryAfter(1.5),
                .status(429).retryAfter(httpDateIn: 30).times(2),
                .json(["ok": true, "n": 1.5, "z": "last"]).header("X-One", "1").header("X-One", "2").status(202),
                .text("plain").delay(milliseconds: 120),
                .data(Data([0, 1, 2, 255])),
                .fault(.connectionReset)
            ).afterLast(.exhaust)
        )
        let first = try await Exchange.send("GET", "/rt/seq", to: understudy)
        #expect(first.response.statusCode == 503)
        #expect(first.response.value(forHTTPHeaderField: "Retry-After") == "1.5")
        for _ in 0..<2 {
            let limited = try await Exchange.send("GET", "/rt/seq", to: understudy)
            #expect(limited.response.statusCode == 429)
            #expect(limited.response.value(forHTTPHeaderField: "Retry-After")?.hasSuffix(" GMT") == true)
        }
        let json = try await Exchange.send("GET", "/rt/seq", to: understudy)
        #expect(json.response.statusCode == 202)
        #expect(String(decoding: json.body, as: UTF8.self) == #"{"ok":true,"n":1.5,"z":"last"}"#)
        #expect(json.response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(
            json.response.value(forHTTPHeaderField: "X-One") == "1,2"
                || json.response.value(forHTTPHeaderField: "X-One") == "1, 2")
        let clock = ContinuousClock()
        let sent = clock.now
        let text = try await Exchange.send("GET", "/rt/seq", to: understudy)
        #expect(clock.now - sent >= .milliseconds(120), "delayMs")
        #expect(String(decoding: text.body, as: UTF8.self) == "plain")
        #expect(try await Exchange.send("GET", "/rt/seq", to: understudy).body == Data([0, 1, 2, 255]))
        // The fault breaks the connection; URLSession may retry a GET by itself, which then finds
        // the stub exhausted. The journal tells what the daemon did either way.
        _ = try? await Exchange.send("GET", "/rt/seq", to: understudy)
        let journal = try await understudy.admin.requests(path: "/rt/seq")
        #expect(Array(journal.prefix(7).map(\.responseIndex)) == [0, 1, 1, 2, 3, 4, 5])
        #expect(journal[6].fault == "connection-reset")
        #expect(journal.dropFirst(7).allSatisfy { !$0.matched }, "exhausted after the last response")
        if journal.count == 7 {
            #expect(try await Exchange.send("GET", "/rt/seq", to: understudy).response.statusCode == 404, "exhausted")
        }
        await withKnownIssue {
            await understudy.assertNoUnmatchedRequests()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("request(s) matched no stub") }
        }
    }

    @Test func aRefusedStubNamesTheSwiftLineAndTheDaemonsReason() async throws {
        let understudy = try #require(Understudy.current)
        let good = Stub.get("/rt/good").respond(.status(200))
        let badLine = #line + 1
        let bad = Stub.get("/rt/bad").respond(.status(999))
        do {
            try await understudy.install(good, bad)
            Issue.record("the daemon accepted status 999")
        } catch let error as StubInstallError {
            let text = error.description
            #expect(text.contains("UnderstudyTestingTests/StubBuilderTests.swift:\(badLine): "), "\(text)")
            #expect(text.contains("stubs[1].responses[0].status"), "\(text)")
            #expect(error.admin.status == 400)
            #expect(error.stubSites == ["UnderstudyTestingTests/StubBuilderTests.swift:\(badLine)"])
        }
        #expect(try await understudy.admin.stubs().isEmpty, "all or nothing")
    }

    @Test func rawJSONStaysAvailable() async throws {
        let understudy = try #require(Understudy.current)
        try await understudy.install(
            json: #"{"stubs":[{"id":"raw","request":{"path":"/rt/raw"},"responses":[{"status":418}]}]}"#)
        try await understudy.install(
            Stub(json: ["id": "raw-value", "request": ["path": "/rt/raw2"], "responses": [["status": 419]]]))
        #expect(try await Exchange.send("GET", "/rt/raw", to: understudy).response.statusCode == 418)
        #expect(try await Exchange.send("GET", "/rt/raw2", to: understudy).response.statusCode == 419)
    }
}
