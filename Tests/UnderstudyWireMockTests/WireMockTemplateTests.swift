import XCTest
@testable import UnderstudyCore
@testable import UnderstudyWireMock
import UnderstudyCoreTestSupport

/// WireMock's Handlebars templates, translated into native templates at load time and rendered by
/// the native engine (the differential suite's templating corpus compares them with the jar).
final class WireMockTemplateTests: XCTestCase {
    override func setUp() {
        super.setUp()
        WireMockSupport.install()
    }

    func testTranslationOfEachHelper() {
        let cases: [(String, String)] = [
            ("{{request.path.[1]}}", "{{request.pathSegments.1}}"),
            ("{{{request.pathSegments.[0]}}}", "{{{request.pathSegments.0}}}"),
            ("{{request.headers.[X-A]}} {{request.query.q.[0]}}", "{{request.headers.X-A}} {{request.query.q}}"),
            ("{{request.baseUrl}}:{{ request.port }}", "{{server.url}}:{{request.port}}"),
            ("{{randomValue type='UUID'}}", "{{random.uuid}}"),
            ("{{randomValue length=8 type='ALPHANUMERIC'}}", "{{random.alphanumeric.8}}"),
            ("{{randomInt lower=1 upper=10}}", "{{random.int.1.9}}"),
            ("{{now offset='3 days' format='yyyy-MM-dd'}}", "{{#now.plus.3d.format}}yyyy-MM-dd{{/now.plus.3d.format}}"),
            ("{{now offset='-2 hours' format='unix'}}", "{{now.minus.2h.epoch}}"),
            ("{{now offset='8 years' format='yyyy'}}", "{{#now.plus.8y.format}}yyyy{{/now.plus.8y.format}}"),
            ("{{now offset='-3 months' format='unix'}}", "{{now.minus.3mo.epoch}}"),
            ("{{now format='epoch'}}", "{{now.epochMs}}"),
            ("{{jsonPath request.body '$.a[0].b'}}", "{{request.json.a.0.b}}"),
            (
                "{{#each (jsonPath request.body '$.items') as |item|}}{{item.id}}{{#unless @last}},{{/unless}}{{/each}}",
                "{{#request.json.items}}{{id}}{{^last()}},{{/last()}}{{/request.json.items}}"
            ),
            ("no tags {here}", "no tags {here}"),
            (
                "{{formData request.body 'form' urlDecode=true}}{{form.amount}} {{{form.note.[0]}}}",
                "{{request.form.amount}} {{{request.form.note}}}"
            ),
        ]
        for (wireMock, native) in cases {
            XCTAssertEqual(try WireMockHandlebars.translate(wireMock).get(), native, wireMock)
        }
    }

    func testHelpersWithoutAnEquivalentAreRefusedByName() {
        let refused: [(String, String)] = [
            ("{{math 1 '+' 2}}", "`math`"), ("{{date (parseDate request.headers.D) format='yyyy'}}", "`date`"),
            ("{{#each (range 1 3) as |i|}}{{i}}{{/each}}", "`range`"),
            ("{{now offset='1 fortnights'}}", "fortnights"), ("{{now offset='1 weeks'}}", "`1 weeks`"),
            ("{{jsonPath request.body '$..deep'}}", "`$..deep`"), ("{{#if request.query.a}}x{{/if}}", "`#if`"),
            ("{{randomValue length=4 type='ALPHANUMERIC' uppercase=true}}", "uppercase"),
            ("{{request.cookies.a}}", "`request.cookies.a`"),
            ("{{#each (jsonPath request.body '$.a')}}", "never closed"),
            ("{{formData request.body 'form'}}{{form.a}}", "urlDecode=true"),
            ("{{formData request.body 'form' urlDecode=true encoding='ISO-8859-1'}}", "UTF-8 only"),
            ("{{formData request.body 'form' urlDecode=true}}{{form.a.b}}", "`form.FIELD` only"),
            ("{{formData request.body urlDecode=true}}", "`formData` is supported as"),
            ("{{form.amount}}", "unknown variable `form.amount`"),
        ]
        for (template, word) in refused {
            switch WireMockHandlebars.translate(template) {
            case .success(let native): XCTFail("\(template) translated to \(native)")
            case .failure(let problem): XCTAssertTrue(problem.message.contains(word), "\(template): \(problem.message)")
            }
        }
    }

    func testTranslatedTemplatesRenderAndEscapeAsHandlebarsDoes() throws {
        let clock = ManualEngineClock(start: Date(timeIntervalSince1970: 1_764_115_200))  // 2025-11-26T00:00:00Z
        let engine = try makeEngine(
            """
            {"request": {"urlPathPattern": "/w/.*"},
             "response": {"status": 200, "transformers": ["response-template"],
                          "headers": {"X-Echo": "{{request.query.q}}"},
                          "body": "{{request.path.[1]}}|{{request.query.q}}|{{{request.query.q}}}|{{now offset='1 days' format='EEE dd MMM yyyy HH:mm'}}|{{now}}|{{#each (jsonPath request.body '$.xs') as |x|}}{{@index}}={{x.n}}{{#unless @last}};{{/unless}}{{/each}}|{{jsonPath request.body '$.xs[1].n'}}"}}
            """, clock: clock)
        // As the 2.35.1 jar answers it: a value's `=` is `&#x3D;`, the template's own `=` is text.
        let response = engine.send("POST", "/w/seg?q=a%3Cb%27%3Dc", body: #"{"xs": [{"n": 1}, {"n": "t=o"}]}"#)
        XCTAssertEqual(
            response.text,
            "seg|a&lt;b&#x27;&#x3D;c|a<b'=c|Thu 27 Nov 2025 00:00|2025-11-26T00:00:00Z|0=1;1=t&#x3D;o|t&#x3D;o")
        XCTAssertEqual(response.headers["X-Echo"], "a&lt;b&#x27;&#x3D;c")
    }

    func testRandomValuesHaveTheirShape() throws {
        let engine = try makeEngine(
            """
            {"request": {"urlPath": "/r"},
             "response": {"transformers": ["response-template"],
                          "body": "{{randomValue type='UUID'}} {{randomValue length=12 type='HEXADECIMAL'}} {{randomValue length=3 type='NUMERIC'}} {{randomInt lower=5 upper=6}}"}}
            """)
        let parts = engine.get("/r").text.split(separator: " ").map(String.init)
        XCTAssertEqual(parts.count, 4)
        XCTAssertEqual(parts[0].count, 36)
        XCTAssertTrue(parts[1].count == 12 && parts[1].allSatisfy(\.isHexDigit), parts[1])
        XCTAssertTrue(parts[2].count == 3 && parts[2].allSatisfy(\.isNumber), parts[2])
        XCTAssertEqual(parts[3], "5", "the upper bound is exclusive, as in WireMock")
    }

    func testGlobalTemplatingRendersMappingsWithoutTheTransformer() throws {
        let root = try makeTemporaryDirectory(self)
        try write(
            #"{"request": {"urlPath": "/g/x"}, "response": {"body": "{{request.path.[0]}}"}}"#,
            to: root + "/mappings/g.json")
        let plain = StubEngine(stubs: try StubLoader.load(paths: [root]))
        XCTAssertEqual(plain.get("/g/x").text, "{{request.path.[0]}}", "without the flag the body is literal")
        let templated = StubEngine(
            stubs: try StubLoader.load(paths: [root], options: StubLoadOptions(wireMockGlobalTemplating: true)))
        XCTAssertEqual(templated.get("/g/x").text, "g")
    }

    func testUntranslatableTemplatesNameTheHelperAtTheirPosition() {
        let errors = loadErrors(
            """
            {"request": {"urlPath": "/w"},
             "response": {"transformers": ["response-template"], "body": "{{math 1 '+' 2}} {{request.path}}",
                          "headers": {"X": "{{now offset='1 weeks'}}"}}}
            """, file: "mappings/t.json")
        XCTAssertEqual(errors.map(\.jsonPath), ["response.body", "response.headers.X"])
        XCTAssertTrue(errors[0].message.contains("`math`"), errors[0].message)
        XCTAssertTrue(errors[1].message.contains("weeks"), errors[1].message)
        XCTAssertEqual(errors[0].line, 2)
    }

    func testDatePatterns() {
        let seconds = 1_764_115_200.123  // 2025-11-26T00:00:00.123Z, a Wednesday
        XCTAssertEqual(
            TimeFormatting.formatted(seconds, pattern: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"), "2025-11-26T00:00:00.123Z")
        XCTAssertEqual(
            TimeFormatting.formatted(seconds, pattern: "EEEE d MMMM yy, h a"), "Wednesday 26 November 25, 12 AM")
        XCTAssertEqual(TimeFormatting.formatted(seconds, pattern: "'it''s' HH"), "it's 00")
        XCTAssertEqual(TimeFormatting.formatted(seconds, pattern: "''HH''"), "'00'")
        XCTAssertEqual(TimeFormatting.formatted(seconds, pattern: "S SS SSS SSSS"), "123 123 123 0123")
        XCTAssertEqual(TimeFormatting.unsupportedPatternLetter("yyyy-Q"), "Q")
        XCTAssertNil(TimeFormatting.unsupportedPatternLetter("yyyy 'Quarter'"))
    }

    func testMissingBodyFilePageFollowsAcceptAsJettyPicksIt() {
        // Measured against the 2.35.1 jar (Jetty 9.4): the first acceptable type by quality that
        // Jetty has a page for; none is an empty body.
        typealias Page = ResponseTemplate.FileChoice.JettyErrorPage
        let cases: [(String?, Page?)] = [
            (nil, .html), ("*/*", .html), ("text/*", .html), ("application/json", .json), ("text/plain", .plain),
            ("application/vnd.github.v3+json", nil), ("", nil), ("image/png, text/html;q=0", nil),
            ("application/xml, text/plain;q=0.5, */*;q=0.1", .plain), ("*/*;q=0.5, application/json", .json),
            ("text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2", .html),
        ]
        for (accept, page) in cases {
            XCTAssertEqual(Page(accept: accept), page, accept ?? "no Accept")
        }
        let json = ResponseTemplate.FileChoice.missingFileAnswer(
            "/r/__files/a.json", accept: "application/json", uri: "/u")
        XCTAssertEqual(json.status, 500)
        XCTAssertEqual(json.headers["Content-Type"], "application/json")
        XCTAssertEqual(json.headers["Connection"], "close", "WireMock closes the connection after it")
        XCTAssertEqual(
            String(decoding: json.body, as: UTF8.self),
            """
            {
            "servlet":"com.github.tomakehurst.wiremock.servlet.WireMockHandlerDispatchingServlet-5eed0000",
            "cause0":"java.io.FileNotFoundException: /r/__files/a.json (No such file or directory)",
            "message":"java.io.FileNotFoundException: /r/__files/a.json (No such file or directory)",
            "url":"/u",
            "status":"500"
            }
            """)
    }
}
