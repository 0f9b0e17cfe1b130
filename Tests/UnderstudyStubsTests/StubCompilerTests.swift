import Foundation
import XCTest
@testable import UnderstudyStubs
import UnderstudyRegex
import UnderstudyStubFormat
import UnderstudyXML

/// The seam between the format and the engine: every source of stubs is a ``StubDefinition`` and
/// ``StubCompiler`` is the one step that makes the engine's stub of it. A stub built in Swift
/// compiles in process to what the same stub posted as JSON compiles to, its errors name the line
/// that built it, and every key the format lists is read by the compile step (one the step ignored
/// would be accepted and do nothing: this names it).
final class StubCompilerTests: XCTestCase {
    private typealias Built = UnderstudyStubFormat.Stub

    override func setUp() {
        super.setUp()
        XMLSupport.install(LibXMLMatching())  // as the daemon does; `xmlEquals` and `xPath` compile with it
    }

    /// The engine's stub as text (every stored property, recursively), or the refusal: two
    /// compilations are the same stub exactly when these agree. The request as written is left
    /// out (it echoes every request key whether the matcher reads it or not), and so is the file.
    private static func fingerprint(_ definition: StubDefinition) -> String {
        do {
            var stub = try StubCompiler.compile(definition)
            stub.requestJSON = nil
            stub.file = ""
            return describe(stub)
        } catch {
            return "refused: \(error)"
        }
    }

    /// `value` as text, every stored property by name, recursively. Unlike `dump`, it is the same
    /// for equal values: a compiled regex is its pattern (its program is a function of the pattern,
    /// and its DFA holds a buffer at a different address each time), and a dictionary's or set's
    /// entries are sorted (their order can differ between equal values).
    private static func describe(_ value: Any) -> String {
        var text = ""
        describe(value, label: "stub", indent: "", into: &text)
        return text
    }

    private static func describe(_ value: Any, label: String, indent: String, into text: inout String) {
        if let regex = value as? CompiledRegex {
            text += "\(indent)\(label): regex \(String(reflecting: regex.pattern))\n"
            return
        }
        if let data = value as? Data {
            text += "\(indent)\(label): bytes \(Array(data))\n"
            return
        }
        let mirror = Mirror(reflecting: value)
        var children = Array(mirror.children)
        var superclass = mirror.superclassMirror
        while let inherited = superclass {
            children += inherited.children
            superclass = inherited.superclassMirror
        }
        guard !children.isEmpty else {
            text += "\(indent)\(label): \(String(reflecting: value))\n"
            return
        }
        text += "\(indent)\(label): \(mirror.subjectType)\n"
        let unordered = mirror.displayStyle == .dictionary || mirror.displayStyle == .set
        let parts = children.enumerated().map { index, child in
            var part = ""
            let label = child.label ?? (unordered ? "-" : "[\(index)]")
            describe(child.value, label: label, indent: indent + "  ", into: &part)
            return part
        }
        text += (unordered ? parts.sorted() : parts).joined()
    }

    func testABuiltStubCompilesToWhatTheSameStubPostedCompilesTo() throws {
        let built = Built.post("/orders").id("order").header("X-Key", .contains("k")).body(.jsonSubset(["a": 1]))
            .respond(.status(201).json(["id": 7]).delay(milliseconds: 5), .status(503).retryAfter(2))
            .afterLast(.cycle).rateLimit(3, per: 10)
        let posted: JSONValue = ["stubs": [built.json]]
        let set = try StubLoader.parse(bytes: Array(posted.jsonText.utf8), file: "<admin>", root: nil)
        XCTAssertEqual(set.stubs.count, 1)
        var fromPost = try XCTUnwrap(set.stubs.first)
        let fromBuilder = try StubCompiler.compile(built.definition)
        XCTAssertEqual(fromBuilder.file, built.fileID)
        XCTAssertEqual(fromPost.file, "<admin>")
        XCTAssertEqual(fromBuilder.requestJSON, fromPost.requestJSON)
        fromPost.file = fromBuilder.file
        XCTAssertEqual(Self.describe(fromBuilder), Self.describe(fromPost))
        XCTAssertEqual(fromBuilder.responses.map(\.status), [201, 503])
        XCTAssertEqual(fromBuilder.rateLimit?.limit, 3)
    }

    func testAnErrorInABuiltStubNamesTheLineThatBuiltIt() {
        let line = #line + 1
        let built = Built.get("/x").respond(.status(99)).setting("priorty", 2)
        XCTAssertThrowsError(try StubCompiler.compile(built.definition)) { error in
            let errors = (error as? StubLoadFailure)?.errors ?? []
            XCTAssertEqual(errors.map(\.file), [built.fileID, built.fileID])
            XCTAssertEqual(errors.map(\.line), [line, line])
            XCTAssertEqual(errors.map(\.jsonPath).sorted(), ["priorty", "responses[0].status"])
            XCTAssertEqual(errors.compactMap(\.suggestion), ["priority"])
        }
    }

    func testAStubWithoutAnIDIsNamedAfterItsDocumentAndIndex() throws {
        let stub = try StubCompiler.compile(Built.get("/x").respond(.status(204)).definition)
        XCTAssertEqual(stub.id, "\(#fileID)#0")
    }

    // MARK: Every key is read

    /// Stubs that together use every key of every object with a value that is not its default, so
    /// that leaving any one out changes the compiled stub (or makes it invalid).
    private static let everyKey: [Built] = [
        Built.post("/a").id("a").description("d").priority(2).tokenExpiresIn(60).openAPISkip("why")
            .query("q", .allOf([.contains("x"), .doesNotContain("y"), .matches("x.*")]))
            .query("r", .anyOf([.equalsIgnoringCase("Y"), .doesNotMatch("z+"), .present]))
            .query("s", .not(.absent))
            .settingRequest("headers", ["X-E": ["equals": "e"]])
            .cookie("c", "v")
            .body(
                .allOf([
                    .equals("b"), .contains("b"), .matches("b"), .json(["a": 1]), .jsonSubset(["a": 1]),
                    .equalsIgnoringCase("B"), .doesNotContain("q"), .doesNotMatch("q"),
                    .jsonEquals([1, 2], ignoreArrayOrder: true, ignoreExtraElements: true, placeholders: true),
                    .jsonPathEquals("$.b", ["${json-unit.any-number}"], placeholders: true),
                    .jsonPath("$.a", .equals("1")), .anyOf([.binary(Data([1]))]), .not(.equals("c")),
                    .form(["amount": "1"]),
                    .xmlEquals(
                        "<a>[[xmlunit.ignore]]</a>", placeholders: true, placeholderOpening: "\\[\\[",
                        placeholderClosing: "]]", exemptedComparisons: ["NAMESPACE_URI"]),
                    .xPath("//p:a", namespaces: ["p": "urn:x"], .equals("<p:a/>")),
                ])
            )
            .respond(
                .status(201).header("X-H", "h").text("t").times(2).delay(milliseconds: 3).retryAfter(4)
                    .statusMessage("Made").compressed(.gzip, when: .always, mistake: .twice),
                .json(["j": 1]).retryAfter(httpDateIn: 30).delay(.lognormal(median: 5, sigma: 0.5, max: 40))
                    .dribble(chunks: 2, overMilliseconds: 10),
                .data(Data([1, 2])).delay(.uniform(min: 1, max: 2)).bytesPerSecond(100),
                .text("{{request.path}}").templated(),
                .text("{{request.path}}").templatedEscapingHTML(),
                .events([.init(event: "e", data: "d", id: "1", retry: 5, comment: "c", delayMs: 1)]),
                .fault(.connectionReset)
            )
            .afterLast(.cycle).scenario("s", whenState: "Started", setState: "Next")
            .rateLimit(
                2, per: 5, retryAfter: .fractional, algorithm: .tokenBucket, headers: .ietfDraft, status: 503,
                name: "n", refusal: .text("slow")),
        Built.request("GET", pathPattern: "/b/[0-9]+").id("b").rateLimit(2, per: 5, refusal: .json(["m": 1]))
            .respond(.status(200)),
        Built.request("GET", url: "/c?x=1").id("c").respond(.status(200))
            .idempotency(header: "X-Key", required: true, ttl: 60, mismatchStatus: 409).earlyRetries(.refuse),
        Built.request("GET", urlPattern: "/d\\?.*").id("d").respond(.status(200)),
        Built.get("/e").id("e").respond(
            .status(200).rstStream(.cancel, afterHeaders: true),
            .status(200).goaway(lastStreamId: .this, errorCode: .enhanceYourCalm, inFlight: .cut)),
        Built.get("/f/x").id("f").respond(
            .proxy(
                to: "http://127.0.0.1:9/api", stripPrefix: "/f", timeoutMs: 500, setHeaders: ["X-Api-Key": "k"],
                removeHeaders: ["Cookie"], addResponseHeaders: ["X-Proxied": "yes"])),
        Built.post("/g").id("g").respond(
            .status(201).json(["id": "ch_1"])
                .webhook(
                    "http://127.0.0.1:9/hook", method: "PUT", headers: ["X-Event": "made"],
                    json: ["id": "{{response.json.id}}"], delayMs: 5, timeoutMs: 100,
                    signing: .github(secret: "s").secretFromEnvironment("PATH").mistake(.tamperedBody),
                    retry: .exponential(initialMs: 1000, factor: 3, maxMs: 60000, attempts: 5)
                )
                .webhook(
                    "{{request.json.callback_url}}", body: "made {{request.path}}",
                    signing: .hmacSHA256(
                        secret: "s", header: "X-Sig", signed: .timestampBody, encoding: .base64, prefix: "sha256=",
                        timestampHeader: "X-Ts"))),
    ]

    /// Keys the compile step checks but the engine has no use for, with why.
    private static let readElsewhere: [StubFormat.Object: [String: String]] = [
        .response: ["bodyFile": "needs a stub file on disk to resolve against (StubLoaderTests cover it)"]
    ]

    /// How the format's objects nest: a key whose value is another format object, an array of
    /// them, or a map from names to them.
    private enum Child {
        case object(StubFormat.Object)
        case array(StubFormat.Object)
        case map(StubFormat.Object)
    }
    private static let children: [StubFormat.Object: [String: Child]] = [
        .stub: [
            "request": .object(.request), "responses": .array(.response), "rateLimit": .object(.rateLimit),
            "idempotency": .object(.idempotency),
        ],
        .request: [
            "query": .map(.valueMatcher), "headers": .map(.valueMatcher), "cookies": .map(.valueMatcher),
            "body": .object(.bodyMatcher),
        ],
        .valueMatcher: ["allOf": .array(.valueMatcher), "anyOf": .array(.valueMatcher), "not": .object(.valueMatcher)],
        .bodyMatcher: [
            "allOf": .array(.bodyMatcher), "anyOf": .array(.bodyMatcher), "not": .object(.bodyMatcher),
            "jsonEquals": .object(.jsonEquals), "jsonPath": .object(.jsonPath), "xmlEquals": .object(.xmlEquals),
            "xPath": .object(.xPath),
        ],
        .jsonPath: ["matcher": .object(.valueMatcher)],
        .xPath: ["matcher": .object(.valueMatcher)],
        .response: [
            "retryAfter": .object(.retryAfter), "delayMs": .object(.delayDistribution), "dribble": .object(.dribble),
            "events": .array(.event), "fault": .object(.fault), "proxy": .object(.proxy),
            "webhooks": .array(.webhook),
        ],
        .webhook: ["signing": .object(.signing), "retry": .object(.backoff)],
        .fault: ["rstStream": .object(.rstStream), "goaway": .object(.goaway)],
        .delayDistribution: ["lognormal": .object(.lognormal)],
    ]

    /// One member left out of one object somewhere in a stub.
    private struct Ablation {
        var object: StubFormat.Object
        var key: String
        /// The whole stub without that member.
        var without: JSONValue
    }

    /// Every member of every format object in `value` (an `object`), each left out in turn.
    private static func ablations(_ value: JSONValue, _ object: StubFormat.Object) -> [Ablation] {
        guard case .object(let members) = value else { return [] }
        var found: [Ablation] = []
        for index in members.indices {
            var rest = members
            rest.remove(at: index)
            found.append(Ablation(object: object, key: members[index].key, without: .object(rest)))
            for inner in ablations(of: members[index].value, children[object]?[members[index].key]) {
                var changed = members
                changed[index].value = inner.without
                found.append(Ablation(object: inner.object, key: inner.key, without: .object(changed)))
            }
        }
        return found
    }

    private static func ablations(of value: JSONValue, _ child: Child?) -> [Ablation] {
        switch (child, value) {
        case (.object(let object)?, _):
            return ablations(value, object)
        case (.array(let object)?, .array(let items)):
            return items.indices.flatMap { index in
                ablations(items[index], object).map { inner in
                    var changed = items
                    changed[index] = inner.without
                    return Ablation(object: inner.object, key: inner.key, without: .array(changed))
                }
            }
        case (.map(let object)?, .object(let members)):
            return members.indices.flatMap { index in
                ablations(of: members[index].value, .object(object)).map { inner in
                    var changed = members
                    changed[index].value = inner.without
                    return Ablation(object: inner.object, key: inner.key, without: .object(changed))
                }
            }
        default:
            return []
        }
    }

    func testTheCompileStepReadsEveryKeyOfTheFormat() throws {
        var read: [StubFormat.Object: Set<String>] = [:]
        for built in Self.everyKey {
            let whole = Self.fingerprint(built.definition)
            XCTAssertFalse(whole.hasPrefix("refused"), "\(built.json["id"]!): \(whole)")
            // Compiling is deterministic, so a difference below is the key's doing.
            XCTAssertEqual(whole, Self.fingerprint(built.definition))
            for ablation in Self.ablations(built.json, .stub) {
                let without = StubDefinition(json: ablation.without, file: built.fileID, line: built.line)
                if Self.fingerprint(without) != whole { read[ablation.object, default: []].insert(ablation.key) }
            }
        }
        for object in StubFormat.Object.allCases where object != .document {
            let exempt = Set((Self.readElsewhere[object] ?? [:]).keys)
            let ignored = Set(object.keys).subtracting(read[object] ?? []).subtracting(exempt)
            XCTAssertEqual(
                ignored.sorted(), [],
                "\(object) keys the compile step accepts but nothing reads (or no stub here uses): add them to "
                    + "StubCompiler or its part readers, and a use to `everyKey`")
        }
    }
}
