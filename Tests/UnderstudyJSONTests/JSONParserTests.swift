import XCTest
@testable import UnderstudyJSON

/// The position-aware JSON parser and writer.
final class JSONParserTests: XCTestCase {
    func testParsesEveryKindAndKeepsKeyOrderAndNumberText() throws {
        let node = try JSONParser.parse(
            Array(#"{"z": [1, -2.50, 3e2, true, false, null], "a": {"k": "v\u00e9\n\ud83d\ude00"}}"#.utf8))
        XCTAssertEqual(
            node.value,
            .object([
                JSONMember(
                    "z", .array([.number("1"), .number("-2.50"), .number("3e2"), .bool(true), .bool(false), .null])),
                JSONMember("a", .object([JSONMember("k", .string("vé\n😀"))])),
            ]))
        XCTAssertEqual(
            String(decoding: node.value.jsonBytes, as: UTF8.self),
            #"{"z":[1,-2.50,3e2,true,false,null],"a":{"k":"vé\n😀"}}"#)
    }

    func testRecordsPositionsOfKeysAndValues() throws {
        let node = try JSONParser.parse(Array("{\n  \"a\": [\n    10,\n  \"x\"]\n}".utf8))
        let member = try XCTUnwrap(node.members?.first)
        XCTAssertEqual(member.keyPosition, SourcePosition(line: 2, column: 3))
        XCTAssertEqual(member.value.position, SourcePosition(line: 2, column: 8))
        XCTAssertEqual(
            member.value.elements?.map(\.position),
            [SourcePosition(line: 3, column: 5), SourcePosition(line: 4, column: 3)])
    }

    func testColumnsStayRightOnALongLine() throws {
        let items = (0..<5_000).map { _ in "1" }.joined(separator: ",")
        XCTAssertThrowsError(try JSONParser.parse(Array("[\(items),]".utf8))) { error in
            let syntax = error as! JSONSyntaxError
            XCTAssertEqual(syntax.position, SourcePosition(line: 1, column: 2 + 5_000 * 2))
        }
    }

    func testRejectsWhatRFC8259Rejects() {
        for (text, message) in [
            ("01", "leading zero"), ("1.", "digit after `.`"), ("-", "expected a digit"), ("1e", "exponent"),
            ("\"\\x\"", "invalid escape"), ("\"\\ud800\"", "unpaired surrogate"), ("[1,]", "expected a JSON value"),
            ("{\"a\" 1}", "expected `:`"), ("tru", "expected `true`"), ("\"abc", "unterminated string"),
            ("[1 2]", "expected `,` or `]`"), ("{\"a\":1 \"b\":2}", "expected `,` or `}`"),
            ("{1:2}", "expected a string key"),
            (String(repeating: "[", count: 600), "nesting deeper than 512"),
        ] {
            XCTAssertThrowsError(try JSONParser.parse(Array(text.utf8)), text) { error in
                let syntax = error as! JSONSyntaxError
                XCTAssertTrue(syntax.message.contains(message), "\(text): \(syntax.message)")
            }
        }
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xFF, 0x22]), "invalid UTF-8 in a string")
    }

    func testWriterEscapesControlCharacters() {
        let value = JSONValue.string("a\"b\\c\u{01}\t\r\u{7F}")
        XCTAssertEqual(String(decoding: value.jsonBytes, as: UTF8.self), #""a\"b\\c\u0001\t\r\u007f""#)
        XCTAssertEqual(JSONValue.parse(value.jsonBytes), value)
    }

    func testSemanticEqualityAndSubset() throws {
        let a = try XCTUnwrap(JSONValue.parse(Array(#"{"a":1,"b":{"c":[1,2]}}"#.utf8)))
        let b = try XCTUnwrap(JSONValue.parse(Array(#"{"b":{"c":[1.0,2]},"a":1}"#.utf8)))
        XCTAssertTrue(a.semanticallyEquals(b))
        XCTAssertFalse(a.semanticallyEquals(.object([])))
        XCTAssertTrue(a.contains(subset: try XCTUnwrap(JSONValue.parse(Array(#"{"b":{"c":[2]}}"#.utf8)))))
        XCTAssertFalse(a.contains(subset: try XCTUnwrap(JSONValue.parse(Array(#"{"b":{"c":[3]}}"#.utf8)))))
        XCTAssertFalse(a.contains(subset: try XCTUnwrap(JSONValue.parse(Array(#"{"d":null}"#.utf8)))))
    }
}
