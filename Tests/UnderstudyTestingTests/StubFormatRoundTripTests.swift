import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyTesting

/// The builders cover the whole stub format (``StubFormat``): stubs built with them use every key
/// of every object, the daemon accepts them all, and what it lists back is what was built. A key
/// added to the format without a builder fails here, named with its object.
@Suite("UnderstudyStubFormat: every field round-trips", .understudy())
struct StubFormatRoundTripTests {
    /// Stubs that together write every key of every object the builders can send over the admin
    /// API (`bodyFile` is for stub files only: it gets a stub of its own, checked for coverage).
    private static let stubs: [Stub] = [
        Stub.post("/ft/a").id("ft-a").description("every request field").priority(2).openAPISkip("round-trip")
            .query("q", "1").query("dry", .absent).query("page", .matches("[0-9]+")).query("debug", .present)
            .query("sort", .allOf([.contains("a"), .doesNotContain("z")]))
            .header("X-Key", .anyOf([.equalsIgnoringCase("yes"), .doesNotMatch("n.*")])).header(
                "X-Not", .not(.equals("x"))
            )
            .cookie("session", .equals("s1"))
            .body(
                .allOf([
                    .jsonSubset(["a": 1]), .json(["a": 1]),
                    .jsonEquals(["a": 1], ignoreArrayOrder: true, ignoreExtraElements: true),
                    .jsonPath("$.a", .equals("1")), .jsonPath("$.a"), .not(.binary(Data([0, 1]))),
                    .jsonPathEquals("$.a", 1, ignoreArrayOrder: true),
                    .jsonEquals(["s": "${json-unit.any-string}"], placeholders: true),
                    .not(
                        .xmlEquals(
                            "<a>[[xmlunit.ignore]]</a>", placeholders: true, placeholderOpening: "\\[\\[",
                            placeholderClosing: "]]", exemptedComparisons: ["NAMESPACE_URI"])),
                    .not(.xPath("//p:a", namespaces: ["p": "urn:x"], .equals("1"))),
                ])
            )
            .respond(
                .status(201).header("X-One", "1").retryAfter(1.5).statusMessage("Made").delay(milliseconds: 1).times(2)
                    .webhook(
                        "http://127.0.0.1:9/hook", method: "PUT", headers: ["X-Event": "made"],
                        json: ["status": "{{response.status}}"], delayMs: 5, timeoutMs: 100,
                        signing: .stripe(secret: "whsec_test").secretFromEnvironment("PATH").mistake(.staleTimestamp),
                        retry: .exponential(initialMs: 1000, factor: 3, maxMs: 60000, attempts: 5)
                    )
                    .webhook(
                        "http://127.0.0.1:9{{request.path}}", body: "made",
                        signing: .hmacSHA256(
                            secret: "s", header: "X-Sig", signed: .timestampBody, encoding: .base64,
                            prefix: "sha256=", timestampHeader: "X-Ts")),
                .json(["ok": true]).retryAfter(httpDateIn: 30).delay(.lognormal(median: 5, sigma: 0.4, max: 50))
                    .compressed(.deflate, when: .always, mistake: .wrongLabel),
                .text("t {{request.path}}").templated().dribble(chunks: 2, overMilliseconds: 5),
                .data(Data([1, 2])).bytesPerSecond(1000).delay(.uniform(min: 1, max: 2)),
                .events([.init(event: "e", data: "d", id: "1", retry: 10, comment: "c", delayMs: 1)]),
                .fault(.connectionReset),
                .proxy(
                    to: "http://127.0.0.1:9", stripPrefix: "/ft", timeoutMs: 500, setHeaders: ["X-Api-Key": "k"],
                    removeHeaders: ["Cookie"], addResponseHeaders: ["X-Proxied": "yes"]
                ).delay(milliseconds: 1)
            )
            .afterLast(.cycle).scenario("ft", whenState: "Started", setState: "Next")
            .rateLimit(
                5, per: 60, retryAfter: .fractional, algorithm: .tokenBucket, headers: .ietfDraft, status: 503,
                name: "ft",
                refusal: .text("slow down")),
        Stub.put("/ft/b").id("ft-b").body(
            .anyOf([
                .equals("x"), .equalsIgnoringCase("X"), .contains("y"), .doesNotContain("z"),
                .matches("x+"), .doesNotMatch("q"), .form(["amount": .matches("[0-9]+"), "metadata[order]": "7"]),
            ])
        )
        .rateLimit(3, per: 10, headers: .github, status: 403, name: "core", refusal: .json(["message": "rate limited"]))
        .respond(.status(200)),
        Stub.request("GET", pathPattern: "/ft/c/[0-9]+").id("ft-c").tokenExpiresIn(3600).respond(
            .status(200), .rstStream(.cancel, afterHeaders: true),
            .goaway(lastStreamId: .this, errorCode: .enhanceYourCalm, inFlight: .cut)),
        Stub.request("GET", url: "/ft/d?x=1").id("ft-d").respond(.status(200))
            .idempotency(header: "X-Idempotency-Key", required: true, ttl: 3600, mismatchStatus: 409)
            .earlyRetries(.refuse),
        Stub.request("GET", urlPattern: "/ft/e\\?.*").id("ft-e").respond(.status(200)),
    ]
    private static let fileOnly = Stub.get("/ft/file").id("ft-file").respond(.bodyFile("body.txt"))

    /// The keys the stubs wrote, by the object they sit in (walked as the format nests them).
    private static func keysWritten(_ document: JSONValue) -> [StubFormat.Object: Set<String>] {
        var found: [StubFormat.Object: Set<String>] = [:]
        func note(_ object: StubFormat.Object, _ value: JSONValue?) {
            guard let members = value?.members else { return }
            found[object, default: []].formUnion(members.map(\.key))
        }
        func valueMatcher(_ value: JSONValue?) {
            guard let value else { return }
            // A plain string is `{"equals": s}` written short, which is how the builders write it.
            if value.stringValue != nil { found[.valueMatcher, default: []].insert("equals") }
            guard value.members != nil else { return }
            note(.valueMatcher, value)
            for inner in (value["allOf"]?.arrayValue ?? []) + (value["anyOf"]?.arrayValue ?? []) { valueMatcher(inner) }
            valueMatcher(value["not"])
        }
        func bodyMatcher(_ value: JSONValue?) {
            guard let value else { return }
            note(.bodyMatcher, value)
            for inner in (value["allOf"]?.arrayValue ?? []) + (value["anyOf"]?.arrayValue ?? []) { bodyMatcher(inner) }
            bodyMatcher(value["not"])
            note(.jsonEquals, value["jsonEquals"])
            if let path = value["jsonPath"], path.members != nil {
                note(.jsonPath, path)
                valueMatcher(path["matcher"])
                note(.jsonEquals, path["jsonEquals"])
            }
            note(.xmlEquals, value["xmlEquals"])
            if let xPath = value["xPath"], xPath.members != nil {
                note(.xPath, xPath)
                valueMatcher(xPath["matcher"])
            }
        }
        note(.document, document)
        for stub in document["stubs"]?.arrayValue ?? [] {
            note(.stub, stub)
            note(.rateLimit, stub["rateLimit"])
            note(.idempotency, stub["idempotency"])
            let request = stub["request"]
            note(.request, request)
            for group in ["query", "headers", "cookies"] {
                for member in request?[group]?.members ?? [] { valueMatcher(member.value) }
            }
            bodyMatcher(request?["body"])
            for response in stub["responses"]?.arrayValue ?? [] {
                note(.response, response)
                note(.retryAfter, response["retryAfter"])
                note(.delayDistribution, response["delayMs"])
                note(.lognormal, response["delayMs"]?["lognormal"])
                note(.dribble, response["dribble"])
                for event in response["events"]?.arrayValue ?? [] { note(.event, event) }
                note(.fault, response["fault"])
                note(.rstStream, response["fault"]?["rstStream"])
                note(.goaway, response["fault"]?["goaway"])
                note(.proxy, response["proxy"])
                for hook in response["webhooks"]?.arrayValue ?? [] {
                    note(.webhook, hook)
                    note(.signing, hook["signing"])
                    note(.backoff, hook["retry"])
                }
            }
        }
        return found
    }

    @Test func theBuildersWriteEveryKeyOfEveryObject() {
        let written = Self.keysWritten(Stub.file(Self.stubs + [Self.fileOnly]))
        for object in StubFormat.Object.allCases {
            // `$schema` is an editor's hint at the top of a file, not something a stub says.
            let wanted = Set(object.keys).subtracting(object == .document ? ["$schema"] : [])
            let missing = wanted.subtracting(written[object] ?? [])
            #expect(missing.isEmpty, "no builder writes \(object) keys \(missing.sorted())")
            let unknown = (written[object] ?? []).subtracting(object.keys)
            #expect(unknown.isEmpty, "builders write \(object) keys the format does not have: \(unknown.sorted())")
        }
    }

    @Test func theDaemonAcceptsThemAndListsWhatWasBuilt() async throws {
        let understudy = try #require(Understudy.current)
        let added = try await understudy.install(Self.stubs)
        #expect(added.added == Self.stubs.map { $0.json["id"]!.stringValue! })
        let listing = try await understudy.admin.stubs()
        for stub in Self.stubs {
            let id = stub.json["id"]!.stringValue!
            let listed = try #require(listing.first { $0.id == id }, "\(id) listed")
            #expect(
                listed.request == stub.json["request"],
                "\(id): built \(stub.json["request"]!), listed \(listed.request?.jsonText ?? "nothing")")
            #expect(listed.responses == stub.json["responses"]?.arrayValue?.count)
            #expect(listed.afterLast == (stub.json["afterLast"]?.stringValue ?? "repeat"))
            #expect(listed.scenario == stub.json["scenario"]?.stringValue)
            #expect(listed.whenState == stub.json["whenState"]?.stringValue)
            #expect(listed.setState == stub.json["setState"]?.stringValue)
            if case .object(let members)? = stub.json["rateLimit"] {
                // The listing names the rule, not its refusal body (checked by a refusal below).
                let rule = JSONValue.object(members.filter { $0.key != "body" && $0.key != "json" })
                #expect(
                    listed.rateLimit?.contains(subset: rule) == true,
                    "\(id) rateLimit: built \(rule), listed \(listed.rateLimit?.jsonText ?? "nothing")")
            }
        }
        // The refusal body comes back as built once the limit is spent.
        var refusal: (response: HTTPURLResponse, body: Data)?
        for _ in 0..<4 { refusal = try await Exchange.send("PUT", "/ft/b", to: understudy, body: "x") }
        #expect(refusal?.response.statusCode == 403)
        #expect(refusal.flatMap { JSONValue.parse(Array($0.body)) } == ["message": "rate limited"])
        // Matchers read back from the listing are the matchers built (the kit's decoder and
        // encoder agree on every case).
        for member in Self.stubs[0].json["request"]?["query"]?.members ?? [] {
            #expect(ValueMatcher(json: member.value).json == member.value, "\(member.key)")
        }
    }
}
