import XCTest
@testable import UnderstudyCore
@testable import UnderstudyWireMock
import UnderstudyCoreTestSupport

/// WireMock 2.35's matching rules that the differential suite found in real roots (issue 30): host,
/// negative matchers on a missing header or query parameter, Java's DOTALL regexes, `urlPath`
/// compared as sent, JSON path filters with `in`, `nin` and `=~`, and the first operator of a body
/// pattern winning.
final class WireMockMatchingTests: XCTestCase {
    override func setUp() {
        super.setUp()
        WireMockSupport.install()
    }

    func testNumbersReachJSONPathSubMatchersAsJavaWritesThem() {
        let cases: [(String, String)] = [
            ("20.10", "20.1"), ("20", "20"), ("20.0", "20.0"), ("1e10", "1.0E10"), ("10000000000.0", "1.0E10"),
            ("0.001", "0.001"), ("0.0001", "1.0E-4"), ("1234567.5", "1234567.5"), ("12345678.5", "1.23456785E7"),
            ("-2.50", "-2.5"), ("1E2", "100.0"), ("0.0", "0.0"), ("-0.0", "-0.0"), ("123456789012", "123456789012"),
        ]
        for (written, java) in cases {
            XCTAssertEqual(JSONPathExpression.javaNumberText(written), java, written)
        }
    }

    func testHeaderValuesArriveInJettysSpellingOfItsWellKnownValues() {
        let contentType = HeaderValueForm.jetty(for: "content-type")
        XCTAssertEqual(contentType.normalize("APPLICATION/JSON"), "application/json")
        XCTAssertEqual(contentType.normalize("application/json; charset=utf-8"), "application/json; charset=UTF-8")
        XCTAssertEqual(
            contentType.normalize("Application/Json;Charset=ISO-8859-1"), "application/json;charset=ISO-8859-1")
        XCTAssertEqual(contentType.normalize("APPLICATION/XML"), "APPLICATION/XML", "not one of Jetty's: as sent")
        XCTAssertEqual(HeaderValueForm.jetty(for: "Connection").normalize("Keep-Alive"), "keep-alive")
        XCTAssertEqual(HeaderValueForm.jetty(for: "Accept").normalize("APPLICATION/JSON"), "APPLICATION/JSON")
        XCTAssertEqual(HeaderValueForm.jetty(for: "X-Kind"), .asSent)
    }

    func testHostMatchesTheHostHeaderWithoutItsPort() throws {
        let engine = try makeEngine(
            """
            {"mappings": [
              {"request": {"url": "/h", "host": {"equalTo": "one.example"}}, "response": {"status": 201}},
              {"request": {"url": "/h", "host": {"matches": "api\\\\.[a-z]+"}}, "response": {"status": 202}},
              {"request": {"url": "/c", "host": {"contains": "internal"}}, "response": {"status": 203}}
            ]}
            """)
        XCTAssertEqual(engine.get("/h", headers: ["Host": "one.example"]).status, 201)
        XCTAssertEqual(engine.get("/h", headers: ["Host": "one.example:8080"]).status, 201)
        XCTAssertEqual(engine.get("/h", headers: ["Host": "api.shop:1"]).status, 202)
        XCTAssertEqual(engine.get("/h", headers: ["Host": "one.examplex"]).status, 404)
        XCTAssertEqual(engine.get("/h").status, 404)
        XCTAssertEqual(engine.get("/c", headers: ["Host": "a.internal.b:9"]).status, 203)
        XCTAssertEqual(engine.get("/c", headers: ["Host": "a.b:9"]).status, 404, "the port is not part of the host")
    }

    func testJSONUnitPlaceholdersInEqualToJSONAndNatively() throws {
        let value =
            #"{"s": "${json-unit.any-string}", "n": "${json-unit.any-number}", "i": "${json-unit.ignore}", "e": "${json-unit.ignore-element}"}"#
        let wireMock = try makeEngine(
            #"{"request": {"url": "/p", "bodyPatterns": [{"equalToJson": \#(value)}]}, "response": {"status": 200}}"#)
        let native = try makeEngine(
            #"{"stubs": [{"request": {"path": "/p", "body": {"jsonEquals": {"value": \#(value), "placeholders": true}}}, "responses": [{"status": 200}]}]}"#
        )
        let literal = try makeEngine(
            #"{"stubs": [{"request": {"path": "/p", "body": {"jsonEquals": {"value": \#(value)}}}, "responses": [{"status": 200}]}]}"#
        )
        let cases: [(String, Int)] = [
            (#"{"s": "x", "n": 1.5, "i": null, "e": 1}"#, 200), (#"{"s": "x", "n": 1, "i": [1]}"#, 200),
            (#"{"s": 1, "n": 1, "i": 1}"#, 404), (#"{"s": "x", "n": "1", "i": 1}"#, 404),
            (#"{"s": "x", "n": 1}"#, 404), (#"{"s": "x", "n": 1, "i": 1, "x": 1}"#, 404),
        ]
        for (body, status) in cases {
            XCTAssertEqual(wireMock.send("POST", "/p", body: body).status, status, body)
            XCTAssertEqual(native.send("POST", "/p", body: body).status, status, body)
            XCTAssertEqual(literal.send("POST", "/p", body: body).status, 404, "without `placeholders`: \(body)")
        }
        let errors = loadErrors(
            #"{"request": {"url": "/r", "bodyPatterns": [{"equalToJson": {"v": "${json-unit.regex}[a-z]+"}}]}, "response": {}}"#,
            file: "mappings/r.json")
        XCTAssertTrue(errors.first?.message.contains("`${json-unit.regex}[a-z]+`") == true, "\(errors)")
    }

    func testNegativeMatchersAcceptAMissingHeaderOrQueryButNotCookie() throws {
        let engine = try makeEngine(
            """
            {"mappings": [
              {"request": {"url": "/h", "headers": {"Authorization": {"doesNotMatch": "Bearer .*"}}}, "response": {"status": 401}},
              {"request": {"urlPath": "/q", "queryParameters": {"m": {"doesNotContain": "debug"}}}, "response": {"status": 200}},
              {"request": {"urlPath": "/c", "cookies": {"c": {"doesNotContain": "x"}}}, "response": {"status": 200}},
              {"request": {"urlPath": "/o", "headers": {"X": {"or": [{"absent": true}, {"equalTo": "yes"}]}}}, "response": {"status": 200}}
            ]}
            """)
        XCTAssertEqual(engine.get("/h").status, 401)
        XCTAssertEqual(engine.get("/h", headers: ["Authorization": "Bearer t"]).status, 404)
        XCTAssertEqual(engine.get("/q").status, 200)
        XCTAssertEqual(engine.get("/q?m=debug").status, 404)
        XCTAssertEqual(engine.get("/c").status, 404, "WireMock 2.35 needs the cookie for doesNotContain")
        XCTAssertEqual(engine.get("/c", headers: ["Cookie": "c=y"]).status, 200)
        XCTAssertEqual(engine.get("/o").status, 200, "`absent` inside `or` (WireMock 3)")
        XCTAssertEqual(engine.get("/o", headers: ["X": "yes"]).status, 200)
        XCTAssertEqual(engine.get("/o", headers: ["X": "no"]).status, 404)
    }

    func testMatchesIsDotAllAndURLPathIsComparedAsSent() throws {
        let engine = try makeEngine(
            """
            {"mappings": [
              {"request": {"urlPath": "/m", "bodyPatterns": [{"matches": "a.*b"}]}, "response": {"status": 200}},
              {"request": {"urlPath": "/u/%7Euser"}, "response": {"status": 201}}
            ]}
            """)
        XCTAssertEqual(engine.send("POST", "/m", body: "a\nline\nb").status, 200)
        XCTAssertEqual(engine.get("/u/%7Euser?x=1").status, 201)
        XCTAssertEqual(engine.get("/u/~user").status, 404, "WireMock compares `urlPath` before percent-decoding")
    }

    func testJSONPathFiltersInNinAndRegex() throws {
        let document = JSONValue.parse(Array(#"{"xs": [{"k": "a", "v": "CVE-1"}, {"k": "c", "v": "x"}]}"#.utf8))!
        XCTAssertEqual(try JSONPathExpression("$.xs[?(@.k in ['a', 'b'])].v").select(document), [.string("CVE-1")])
        XCTAssertEqual(try JSONPathExpression("$.xs[?(@.k nin ['a', 'b'])].v").select(document), [.string("x")])
        XCTAssertEqual(try JSONPathExpression("$.xs[?(@.v =~ /cve-[0-9]+/i)].k").select(document), [.string("a")])
        XCTAssertEqual(try JSONPathExpression("$.xs[?(@.v == 'in x')]").select(document), [])
        XCTAssertThrowsError(try JSONPathExpression("$.xs[?(@.v =~ /a/g)]"))
    }

    func testTheFirstOperatorOfABodyPatternWins() throws {
        let engine = try makeEngine(
            """
            {"request": {"urlPath": "/f", "bodyPatterns": [{"matchesJsonPath": "$.a", "contains": "never"}]},
             "response": {"status": 200}}
            """)
        XCTAssertEqual(engine.send("POST", "/f", body: #"{"a": 1}"#).status, 200)
        XCTAssertEqual(engine.send("POST", "/f", body: #"{"b": "never"}"#).status, 404)
    }
}
