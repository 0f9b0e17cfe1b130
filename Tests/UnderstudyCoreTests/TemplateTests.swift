import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// `"template": true` responses: every variable, the opt-in rule, seeded randomness and
/// load-time errors with their positions.
final class TemplateTests: XCTestCase {
    private func engine(_ json: String, seed: UInt64? = 42, clock: ManualEngineClock = ManualEngineClock()) throws
        -> StubEngine
    {
        let set = try StubLoader.parse(bytes: Array(json.utf8), file: "t.json", root: nil)
        return StubEngine(stubs: set, configuration: EngineConfiguration(clock: clock, seed: seed))
    }

    private func stub(body: String) -> String {
        #"{"stubs":[{"request":{"pathPattern":"/.*"},"responses":[{"template":true,"body":"# + jsonString(body)
            + "}]}]}"
    }

    private func jsonString(_ text: String) -> String {
        String(decoding: JSONValue.string(text).jsonBytes, as: UTF8.self)
    }

    private func render(_ body: String, _ request: HTTPRequest, serverURL: String? = "http://127.0.0.1:4242") throws
        -> String
    {
        let engine = try engine(stub(body: body))
        engine.serverURL = serverURL
        return engine.handle(request).text
    }

    func testRequestVariables() throws {
        let request = HTTPRequest(
            method: "POST", target: "/orders/a%20b/items?page=2&tag=x+y&page=9",
            headers: ["X-Correlation": "c-1", "Content-Type": "application/json"],
            body: Array(#"{"user":{"name":"Ada","tags":["t0","t1"]},"n":1.50,"ok":true,"none":null}"#.utf8))
        let cases: [(String, String)] = [
            ("{{request.method}}", "POST"),
            ("{{request.path}}", "/orders/a b/items"),
            ("{{request.url}}", "/orders/a%20b/items?page=2&tag=x+y&page=9"),
            (
                "{{request.pathSegments.0}}|{{request.pathSegments.1}}|{{request.pathSegments.2}}|{{request.pathSegments.7}}",
                "orders|a b|items|"
            ),
            ("{{request.query.page}} {{request.query.tag}} [{{request.query.missing}}]", "2 x y []"),
            ("{{request.headers.x-correlation}} {{request.headers.X-CORRELATION}}", "c-1 c-1"),
            ("{{request.body}}", #"{"user":{"name":"Ada","tags":["t0","t1"]},"n":1.50,"ok":true,"none":null}"#),
            (
                "{{request.json.user.name}} {{request.json.user.tags.1}} {{request.json.n}} {{request.json.ok}} [{{request.json.none}}] [{{request.json.nope.deeper}}]",
                "Ada t1 1.50 true [] []"
            ),
            ("{{request.json.user.tags}}", #"["t0","t1"]"#),
            ("{{server.url}}/next", "http://127.0.0.1:4242/next"),
            (
                "{{#request.json.ok}}yes{{/request.json.ok}}{{^request.json.none}} none{{/request.json.none}}",
                "yes none"
            ),
            ("<{{request.headers.content-type}}> & \"q\"", "<application/json> & \"q\""),  // no HTML escaping
        ]
        for (template, expected) in cases {
            XCTAssertEqual(try render(template, request), expected, template)
        }
    }

    func testServerURLFallsBackToHostHeaderOutsideTheTransport() throws {
        XCTAssertEqual(
            try render(
                "{{server.url}}", HTTPRequest(method: "GET", target: "/", headers: ["Host": "example.test:81"]),
                serverURL: nil),
            "http://example.test:81")
    }

    func testTimeVariables() throws {
        let clock = ManualEngineClock(start: Date(timeIntervalSince1970: 1_767_225_600.25))  // 2026-01-01T00:00:00.250Z
        let engine = try engine(
            stub(
                body:
                    "{{now}}|{{now.iso}}|{{now.epoch}}|{{now.epochMs}}|{{now.plus.1h.iso}}|{{now.minus.30m.epoch}}|{{now.plus.1500ms.epochMs}}|{{now.plus.2d.iso}}|{{now.minus.10s.iso}}"
            ), clock: clock)
        XCTAssertEqual(
            engine.get("/").text,
            "2026-01-01T00:00:00.250Z|2026-01-01T00:00:00.250Z|1767225600|1767225600250|2026-01-01T01:00:00.250Z|1767223800|1767225601750|2026-01-03T00:00:00.250Z|2025-12-31T23:59:50.250Z"
        )
    }

    func testSeqIsTheJournalSeq() throws {
        let engine = try engine(
            #"{"stubs":[{"request":{"path":"/s"},"responses":[{"template":true,"body":"{{seq}}"}]}]}"#)
        _ = engine.get("/other")  // journaled as seq 1 (unmatched)
        XCTAssertEqual(engine.get("/s").text, "2")
        XCTAssertEqual(engine.get("/s").text, "3")
        XCTAssertEqual(engine.journalEntries.map(\.seq), [1, 2, 3])
    }

    func testRandomValuesRepeatWithTheSameSeed() throws {
        let body = "{{random.uuid}} {{random.int}} {{random.int.5.9}} {{random.number}}"
        let first = try engine(stub(body: body), seed: 7)
        let second = try engine(stub(body: body), seed: 7)
        let other = try engine(stub(body: body), seed: 8)
        let a = (0..<5).map { _ in first.get("/").text }
        let b = (0..<5).map { _ in second.get("/").text }
        let c = (0..<5).map { _ in other.get("/").text }
        XCTAssertEqual(a, b, "same seed, same values")
        XCTAssertNotEqual(a, c, "another seed, other values")
        XCTAssertEqual(Set(a).count, 5, "each request draws new values")
        for text in a {
            let parts = text.split(separator: " ")
            XCTAssertEqual(parts.count, 4)
            let uuid = String(parts[0])
            XCTAssertNotNil(
                uuid.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/), uuid)
            XCTAssertTrue((0...Int(Int32.max)).contains(Int(parts[1])!))
            XCTAssertTrue((5...9).contains(Int(parts[2])!))
            let unit = Double(parts[3])!
            XCTAssertTrue(unit >= 0 && unit < 1)
        }
    }

    func testTemplatesAreOptIn() throws {
        let engine = try engine(
            #"""
            {"stubs":[
              {"request":{"path":"/static"},"responses":[{"body":"{{request.path}} {{nonsense}}","headers":{"X-A":"{{request.method}}"}}]},
              {"request":{"path":"/off"},"responses":[{"template":false,"json":{"a":"{{request.path}}"}}]},
              {"request":{"path":"/on"},"responses":[{"template":true,"body":"{{request.path}}","headers":{"X-A":"{{request.method}}","X-B":"plain"}}]}
            ]}
            """#)
        let plain = engine.get("/static")
        XCTAssertEqual(plain.text, "{{request.path}} {{nonsense}}", "without `template`, braces are just text")
        XCTAssertEqual(plain.headers["X-A"], "{{request.method}}")
        XCTAssertEqual(engine.get("/off").text, #"{"a":"{{request.path}}"}"#)
        let on = engine.get("/on")
        XCTAssertEqual(on.text, "/on")
        XCTAssertEqual(on.headers["X-A"], "GET")
        XCTAssertEqual(on.headers["X-B"], "plain")
        XCTAssertNil(engine.stubs[0].responses[0].template, "a static response carries no template")
        XCTAssertNil(engine.stubs[1].responses[0].template)
    }

    func testJSONBodyStringsAreTemplatesEscapedAsJSON() throws {
        let engine = try engine(
            #"""
            {"stubs":[{"request":{"path":"/j"},"responses":[{"template":true,"json":{"echo":"{{request.body}}","n":1.50,"list":["{{request.method}}",2],"{{request.method}}":"key"}}]}]}
            """#)
        let response = engine.send("POST", "/j", body: "say \"hi\"\n")
        XCTAssertEqual(response.text, #"{"echo":"say \"hi\"\n","n":1.50,"list":["POST",2],"POST":"key"}"#)
        XCTAssertEqual(response.headers["Content-Type"], "application/json")
    }

    func testHeaderValuesCannotBeSplitByRequestData() throws {
        let engine = try engine(
            #"{"stubs":[{"request":{"path":"/h"},"responses":[{"template":true,"headers":{"X-Echo":"{{request.body}}"}}]}]}"#
        )
        XCTAssertEqual(engine.send("POST", "/h", body: "a\r\nInjected: yes").headers["X-Echo"], "a  Injected: yes")
    }

    func testBodyFileTemplate() throws {
        let directory = try makeTemporaryDirectory(self)
        try write("id={{request.pathSegments.1}}\n", to: directory + "/body.txt")
        try write(
            #"{"stubs":[{"request":{"pathPattern":"/f/.*"},"responses":[{"template":true,"bodyFile":"body.txt"}]}]}"#,
            to: directory + "/s.json")
        let set = try StubLoader.load(paths: [directory + "/s.json"])
        XCTAssertEqual(StubEngine(stubs: set).get("/f/9").text, "id=9\n")
    }

    func testEventDataTemplates() throws {
        let engine = try engine(
            #"{"stubs":[{"request":{"path":"/e"},"responses":[{"template":true,"events":[{"data":"{{request.query.q}}"},{"data":"static"}]}]}]}"#
        )
        guard case .events(let events)? = engine.get("/e?q=hello").streaming else { return XCTFail("not a stream") }
        XCTAssertEqual(events.map(\.data), ["hello", "static"])
    }

    // MARK: - Load-time errors

    func testUnknownVariableIsALoadErrorWithPosition() {
        let json = """
            {"stubs":[{"request":{"path":"/x"},
              "responses":[{"template":true,"body":"id {{request.pth}}"}]}]}
            """
        let errors = loadErrors(json)
        XCTAssertEqual(errors.count, 1)
        let error = errors[0]
        XCTAssertEqual(error.file, "bad.json")
        XCTAssertEqual(error.line, 2)
        // The string starts at column 40 (its quote); `pth` is at offset 14 in it.
        XCTAssertEqual(error.column, 40 + 14)
        XCTAssertEqual(error.jsonPath, "stubs[0].responses[0].body")
        XCTAssertTrue(error.message.contains("unknown template variable `request.pth`"), error.message)
        XCTAssertTrue(error.message.contains("did you mean `request.path`"), error.message)
    }

    func testTemplateErrorsEverywhere() {
        let json = #"""
            {"stubs":[{"request":{"path":"/x"},"responses":[{"template":true,
              "headers":{"Link":["<{{server.url}}/a>","<{{sever.url}}/b>"]},
              "json":{"a":{"b":["{{#request.query.x}}open"]}}}]},
              {"request":{"path":"/y"},"responses":[{"template":true,"body":"{{now.plus.soon.iso}} {{random.int.5}} {{request}}"}]}
            ]}
            """#
        let errors = loadErrors(json)
        XCTAssertEqual(
            errors.map(\.jsonPath),
            [
                "stubs[0].responses[0].headers.Link[1]", "stubs[0].responses[0].json.a.b[0]",
                "stubs[1].responses[0].body",
            ])
        XCTAssertTrue(errors[0].message.contains("unknown template variable `sever`"), errors[0].message)
        XCTAssertEqual(errors[0].line, 2)
        XCTAssertTrue(errors[1].message.contains("template syntax"), errors[1].message)
        XCTAssertTrue(errors[2].message.contains("`soon` is not a duration"), errors[2].message)
    }

    func testEachBadVariableKind() {
        let cases: [(String, String)] = [
            ("{{random.int.5}}", "needs a maximum"),
            ("{{random.int.9.5}}", "MIN ≤ MAX"),
            ("{{random.uid}}", "did you mean `random.uuid`"),
            ("{{request}}", "`request` is a group of values"),
            ("{{request.pathSegments.first}}", "0-based index"),
            ("{{now.plus.1w.iso}}", "not a duration"),
            ("{{now.nope}}", "unknown template variable `now.nope`"),
            ("{{#request.path}}x", "never closed"),
            ("{{=<% %>=}}", "delimiters"),
        ]
        for (template, expected) in cases {
            let errors = loadErrors(stub(body: template))
            XCTAssertEqual(errors.count, 1, template)
            XCTAssertTrue(
                errors.first?.message.contains(expected) ?? false, "\(template): \(errors.first?.message ?? "no error")"
            )
        }
    }

    func testTemplateFlagMustBeBoolOrHTMLAndBase64IsRefused() {
        XCTAssertTrue(
            loadErrors(#"{"stubs":[{"responses":[{"template":"yes","body":"x"}]}]}"#)[0].message.contains(
                #"true, false or "html""#))
        XCTAssertTrue(
            loadErrors(#"{"stubs":[{"responses":[{"template":true,"base64":"AA=="}]}]}"#)[0].message.contains(
                "cannot be a template"))
    }

    func testHTMLTemplateEscapesAsHandlebars() throws {
        // `"template": "html"`: `{{x}}` is escaped as Handlebars (and WireMock) writes it; `{{{x}}}` is not.
        let engine = try engine(
            #"{"stubs":[{"request":{"path":"/e"},"responses":[{"template":"html","body":"{{request.query.x}}|{{{request.query.x}}}"}]}]}"#
        )
        let answer = engine.handle(HTTPRequest(method: "GET", target: "/e?x=%3Ca%26b%22%27%3D%60%3E"))
        XCTAssertEqual(answer.text, "&lt;a&amp;b&quot;&#x27;&#x3D;&#x60;&gt;|<a&b\"'=`>")
    }

    func testTemplatedBodyFilePicksAFilePerRequest() throws {
        let root = try makeTemporaryDirectory(self)
        try write(
            #"{"stubs":[{"request":{"pathPattern":"/f/.*"},"responses":[{"template":true,"bodyFile":"bodies/{{request.pathSegments.1}}"}]}]}"#,
            to: root + "/stubs.json")
        try write(#"{"plain": true}"#, to: root + "/bodies/a.json")
        try write("hello {{request.query.n}}", to: root + "/bodies/deeper/b.txt")
        let set = try StubLoader.load(paths: [root])
        XCTAssertEqual(set.stubs.count, 1, "the body files are not read as stubs")
        let engine = StubEngine(stubs: set, configuration: EngineConfiguration(clock: ManualEngineClock()))
        XCTAssertEqual(engine.handle(HTTPRequest(method: "GET", target: "/f/a.json")).text, #"{"plain": true}"#)
        let missing = engine.handle(HTTPRequest(method: "GET", target: "/f/nope.json"))
        XCTAssertEqual(missing.status, 500)
        XCTAssertTrue(missing.text.contains("bodies/nope.json (No such file or directory)"), missing.text)
        let unacceptable = engine.handle(
            HTTPRequest(method: "GET", target: "/f/nope.json", headers: ["Accept": "application/vnd.github+json"]))
        XCTAssertEqual(unacceptable.status, 500)
        XCTAssertEqual(unacceptable.text, "")
        XCTAssertNil(unacceptable.headers["Content-Type"])

        try write(
            #"{"stubs":[{"responses":[{"template":true,"bodyFile":"{{request.pathSegments.1}}"}]}]}"#,
            to: root + "/stubs.json")
        XCTAssertThrowsError(try StubLoader.load(paths: [root + "/stubs.json"])) { error in
            let first = (error as! StubLoadFailure).errors[0]
            XCTAssertEqual(first.jsonPath, "stubs[0].responses[0].bodyFile")
            XCTAssertTrue(first.message.contains("needs a fixed directory before its first tag"), first.message)
        }
    }
}
