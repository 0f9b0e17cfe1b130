import XCTest
@testable import UnderstudyCore
import UnderstudyWireMock
import UnderstudyXML
import UnderstudyCoreTestSupport

/// XML body matching (`xmlEquals`, `xPath`; WireMock's `equalToXml`, `matchesXPath`) on the engine,
/// socket-free, with libxml2 installed as the daemon installs it. Each expectation was first
/// checked against the WireMock 2.35.1 jar (Tests/WireMockDifferential has the same cases).
final class XMLMatchingTests: XCTestCase {
    override func setUp() {
        super.setUp()
        XMLSupport.install(LibXMLMatching())
        // One test reads WireMock's `equalToXml` and `matchesXPath`, as the CLI installs them.
        WireMockSupport.install()
    }

    private func native(_ body: String) throws -> StubEngine {
        try makeEngine(#"{"stubs": [{"request": {"path": "/x", "body": \#(body)}, "responses": [{"status": 200}]}]}"#)
    }

    func testXMLEqualsIgnoresWhatXMLUnitIgnoresAsWireMockSetsItUp() throws {
        let engine = try native(#"{"xmlEquals": "<a><b>1</b><c x=\"1\" y=\"2\"/></a>"}"#)
        let cases: [(String, Int)] = [
            (#"<a><b>1</b><c x="1" y="2"/></a>"#, 200),
            (#"<a>  <b>1</b>  <c y="2" x="1"/> </a>"#, 200),  // whitespace, attribute order
            (#"<a><c x="1" y="2"/><b>1</b></a>"#, 200),  // differently named children in another order
            (#"<a><b> 1 </b><c x="1" y="2"/></a>"#, 200),  // text trimmed
            (#"<?xml version="1.0"?><a><!-- c --><b><![CDATA[1]]></b><c x="1" y="2"></c></a>"#, 200),
            (#"<a xmlns:z="urn:z"><b>1</b><c x="1" y="2"/></a>"#, 200),  // a declaration is no attribute
            (#"<a><b>1</b><c x="1" y="2"/><d/></a>"#, 404),
            (#"<a><b>1</b><c x="1" y="3"/></a>"#, 404),
            (#"<a><b>1</b><c x="1"/></a>"#, 404),
            (#"<a><b>1</b><?pi x?><c x="1" y="2"/></a>"#, 404),
            ("not xml", 404), ("", 404), (#"<a><b>1</b>"#, 404),
        ]
        for (body, status) in cases {
            XCTAssertEqual(engine.send("POST", "/x", body: body).status, status, body)
        }
    }

    func testSameNamedChildrenPairInOrderAndNamespacesAreIgnored() throws {
        let ordered = try native(#"{"xmlEquals": "<a><b>1</b><b>2</b></a>"}"#)
        XCTAssertEqual(ordered.send("POST", "/x", body: "<a><b>1</b><b>2</b></a>").status, 200)
        XCTAssertEqual(ordered.send("POST", "/x", body: "<a><b>2</b><b>1</b></a>").status, 404)
        let prefixed = try native(#"{"xmlEquals": "<p:a xmlns:p=\"urn:x\"><p:b>1</p:b></p:a>"}"#)
        for body in [
            #"<q:a xmlns:q="urn:x"><q:b>1</q:b></q:a>"#, #"<a xmlns="urn:x"><b>1</b></a>"#, "<a><b>1</b></a>",
            #"<q:a xmlns:q="urn:y"><q:b>1</q:b></q:a>"#,
        ] {
            XCTAssertEqual(prefixed.send("POST", "/x", body: body).status, 200, body)
        }
    }

    func testPlaceholdersDelimitersAndExemptedComparisons() throws {
        let ignore = try native(#"{"xmlEquals": {"value": "<a><b>${xmlunit.ignore}</b></a>", "placeholders": true}}"#)
        XCTAssertEqual(ignore.send("POST", "/x", body: "<a><b>anything</b></a>").status, 200)
        XCTAssertEqual(ignore.send("POST", "/x", body: "<a><c>anything</c></a>").status, 404)
        let literal = try native(#"{"xmlEquals": "<a><b>${xmlunit.ignore}</b></a>"}"#)
        XCTAssertEqual(literal.send("POST", "/x", body: "<a><b>anything</b></a>").status, 404)
        let brackets = try native(
            #"{"xmlEquals": {"value": "<a n=\"[[xmlunit.isNumber]]\"><b>[[xmlunit.matchesRegex([a-z]+)]]</b></a>", "placeholders": true, "placeholderOpening": "\\[\\[", "placeholderClosing": "]]"}}"#
        )
        XCTAssertEqual(brackets.send("POST", "/x", body: #"<a n="1.5"><b>abc</b></a>"#).status, 200)
        XCTAssertEqual(brackets.send("POST", "/x", body: #"<a n="x"><b>abc</b></a>"#).status, 404)
        XCTAssertEqual(brackets.send("POST", "/x", body: #"<a n="1"><b>ab1</b></a>"#).status, 404)
        let exempt = try native(
            #"{"xmlEquals": {"value": "<a><b>1</b></a>", "exemptedComparisons": ["ELEMENT_TAG_NAME"]}}"#)
        XCTAssertEqual(exempt.send("POST", "/x", body: "<z><b>1</b></z>").status, 200)
        XCTAssertEqual(exempt.send("POST", "/x", body: "<z><b>2</b></z>").status, 404)
    }

    func testXPathSelectsNodesAndASubMatcherReadsTheirText() throws {
        let body = #"<a x="1"><b>1</b><b>2</b></a>"#
        let cases: [(String, String, Int)] = [
            (#"{"xPath": "//a/b"}"#, body, 200),
            (#"{"xPath": "//a/c"}"#, body, 404),
            (#"{"xPath": {"expression": "//b/text()", "matcher": {"equals": "1"}}}"#, body, 200),
            (#"{"xPath": {"expression": "//b/text()", "matcher": {"equals": "1"}}}"#, "<a><b> 1 </b></a>", 404),
            (#"{"xPath": {"expression": "//b", "matcher": {"equals": "1"}}}"#, body, 404),  // an element is XML
            (#"{"xPath": {"expression": "//b", "matcher": {"equals": "<b>2</b>"}}}"#, body, 200),
            (#"{"xPath": {"expression": "//b", "matcher": {"contains": "1"}}}"#, body, 200),
            (#"{"xPath": {"expression": "//a/@x", "matcher": {"equals": "1"}}}"#, body, 200),
            (#"{"xPath": "count(//b) = 2"}"#, body, 404),  // not a node set
            (#"{"xPath": "//a/b"}"#, #"<p:a xmlns:p="urn:x"><p:b>1</p:b></p:a>"#, 200),
            (#"{"xPath": "//a/b"}"#, "not xml", 404),
            (
                #"{"xPath": {"expression": "//p:b", "namespaces": {"p": "urn:x"}}}"#,
                #"<q:a xmlns:q="urn:x"><q:b/></q:a>"#, 200
            ),
            (
                #"{"xPath": {"expression": "//p:b", "namespaces": {"p": "urn:x"}}}"#,
                #"<q:a xmlns:q="urn:y"><q:b/></q:a>"#, 404
            ),
            (
                #"{"xPath": {"expression": "//b", "namespaces": {"p": "urn:x"}}}"#,
                #"<q:a xmlns:q="urn:y"><q:b/></q:a>"#, 404
            ),
        ]
        for (matcher, request, status) in cases {
            XCTAssertEqual(
                try native(matcher).send("POST", "/x", body: request).status, status, "\(matcher) on \(request)")
        }
    }

    func testWireMockMappingsMapOntoTheNativeMatchers() throws {
        let engine = try makeEngine(
            """
            {"mappings": [
              {"request": {"url": "/eq", "bodyPatterns": [{"equalToXml": "<a><b>[[xmlunit.ignore]]</b></a>", "enablePlaceholders": true, "placeholderOpeningDelimiterRegex": "\\\\[\\\\[", "placeholderClosingDelimiterRegex": "]]"}]}, "response": {"status": 201}},
              {"request": {"url": "/xp", "bodyPatterns": [{"matchesXPath": "//p:b", "xPathNamespaces": {"p": "urn:x"}}]}, "response": {"status": 202}},
              {"request": {"url": "/sub", "bodyPatterns": [{"matchesXPath": {"expression": "//b/text()", "matches": "[0-9]+"}}]}, "response": {"status": 203}}
            ]}
            """)
        XCTAssertEqual(engine.send("POST", "/eq", body: "<a><b>any</b></a>").status, 201)
        XCTAssertEqual(engine.send("POST", "/eq", body: "<a><c>any</c></a>").status, 404)
        XCTAssertEqual(engine.send("POST", "/xp", body: #"<a xmlns:q="urn:x"><q:b/></a>"#).status, 202)
        XCTAssertEqual(engine.send("POST", "/xp", body: "<a><b/></a>").status, 404)
        XCTAssertEqual(engine.send("POST", "/sub", body: "<a><b>42</b></a>").status, 203)
        XCTAssertEqual(engine.send("POST", "/sub", body: "<a><b>x</b></a>").status, 404)
    }

    func testAMissSaysWhyAndBadStubsAreRefusedWithTheReason() throws {
        let engine = try native(#"{"xmlEquals": "<a><b>1</b></a>"}"#)
        let miss = String(decoding: engine.send("POST", "/x", body: "<a><b>2</b></a>").body, as: UTF8.self)
        XCTAssertTrue(miss.contains(#"body XML differs: text of /a/b "2" ≠ "1""#), miss)
        let notXML = String(decoding: engine.send("POST", "/x", body: "{}").body, as: UTF8.self)
        XCTAssertTrue(notXML.contains("body is not XML"), notXML)
        let xPath = try native(#"{"xPath": "//c"}"#)
        let none = String(decoding: xPath.send("POST", "/x", body: "<a/>").body, as: UTF8.self)
        XCTAssertTrue(none.contains("body XPath //c selects nothing"), none)

        let broken = loadErrors(#"{"stubs": [{"request": {"body": {"xmlEquals": "<a><b></a>"}}, "responses": [{}]}]}"#)
        XCTAssertEqual(broken.map(\.jsonPath), ["stubs[0].request.body.xmlEquals"])
        XCTAssertTrue(broken.first?.message.contains("not well-formed: line 1") == true, "\(broken)")
        let badXPath = loadErrors(#"{"stubs": [{"request": {"body": {"xPath": "//a["}}, "responses": [{}]}]}"#)
        XCTAssertTrue(badXPath.first?.message.contains("not a valid XPath") == true, "\(badXPath)")
        let exempt = loadErrors(
            #"{"stubs": [{"request": {"body": {"xmlEquals": {"value": "<a/>", "exemptedComparisons": ["TAG"]}}}, "responses": [{}]}]}"#
        )
        XCTAssertTrue(exempt.first?.message.contains("unknown comparison type `TAG`") == true, "\(exempt)")
        let placeholder = loadErrors(
            #"{"stubs": [{"request": {"body": {"xmlEquals": {"value": "<a>${xmlunit.isDateTime}</a>", "placeholders": true}}}, "responses": [{}]}]}"#
        )
        XCTAssertTrue(placeholder.first?.message.contains("xmlunit.isDateTime") == true, "\(placeholder)")
    }
}
