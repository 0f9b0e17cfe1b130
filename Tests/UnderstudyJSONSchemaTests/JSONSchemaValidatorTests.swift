import UnderstudyJSON
import UnderstudyJSONSchema
import XCTest

/// What the suite does not cover: OpenAPI 3.0's schema object, readOnly/writeOnly, the strict mode,
/// located violations, and what is reported instead of silently passing.
final class JSONSchemaValidatorTests: XCTestCase {
    private func validator(
        _ dialect: SchemaDialect = .draft202012, _ root: JSONValue = .null,
        options: SchemaOptions = SchemaOptions()
    ) -> JSONSchemaValidator {
        JSONSchemaValidator(dialect: dialect, options: options, resolver: SingleDocumentResolver(root: root))
    }

    private func json(_ text: String) -> JSONValue { JSONValue.parse(Array(text.utf8))! }

    func testAViolationNamesTheInstancePathAndTheSchemaPointer() {
        let root = json(
            ##"{"components": {"schemas": {"Item": {"type": "object", "properties": {"id": {"type": "integer"}}}}}}"##)
        let schema = json(
            ##"{"type": "object", "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}}"##
        )
        let outcome = validator(.draft202012, root).validate(
            json(##"{"items": [{"id": 1}, {"id": "2"}]}"##), against: schema, at: "#/x")
        XCTAssertEqual(outcome.violations.count, 1)
        XCTAssertEqual(outcome.violations.first?.instancePathText, "$.items[1].id")
        XCTAssertEqual(outcome.violations.first?.schemaPointer, "#/components/schemas/Item/properties/id/type")
        XCTAssertEqual(outcome.violations.first?.message, "expected integer, found string")
    }

    func testOpenAPI30NullableAndBooleanExclusiveBounds() {
        let nullable = json(##"{"type": "string", "nullable": true}"##)
        XCTAssertTrue(validator(.openAPI30).isValid(.null, against: nullable))
        XCTAssertFalse(validator(.draft202012).isValid(.null, against: nullable), "2020-12 has no nullable")
        let bounded = json(
            ##"{"type": "number", "minimum": 1, "exclusiveMinimum": true, "maximum": 3, "exclusiveMaximum": true}"##)
        XCTAssertFalse(validator(.openAPI30).isValid(json("1"), against: bounded))
        XCTAssertTrue(validator(.openAPI30).isValid(json("2"), against: bounded))
        XCTAssertFalse(validator(.openAPI30).isValid(json("3"), against: bounded))
    }

    func testOpenAPI30RefReplacesItsSiblings() {
        let root = json(##"{"S": {"type": "string"}}"##)
        let schema = json(##"{"$ref": "#/S", "maxLength": 1}"##)
        XCTAssertTrue(validator(.openAPI30, root).isValid(json(##""long""##), against: schema))
        XCTAssertFalse(validator(.draft202012, root).isValid(json(##""long""##), against: schema))
    }

    func testWriteOnlyIsRefusedInResponsesAndReadOnlyNotRequiredInRequests() {
        let schema = json(
            ##"{"type": "object", "required": ["id", "password"], "properties": {"id": {"type": "integer", "readOnly": true}, "password": {"type": "string", "writeOnly": true}}}"##
        )
        let response = validator(options: SchemaOptions(direction: .response))
        XCTAssertTrue(
            response.isValid(json(##"{"id": 1}"##), against: schema),
            "a writeOnly property is not required in a response")
        XCTAssertFalse(response.isValid(json(##"{"id": 1, "password": "x"}"##), against: schema))
        let request = validator(options: SchemaOptions(direction: .request))
        XCTAssertTrue(request.isValid(json(##"{"password": "x"}"##), against: schema))
        XCTAssertFalse(request.isValid(json(##"{"id": 1, "password": "x"}"##), against: schema))
    }

    func testStrictExtraFieldsRefusesUnlistedMembers() {
        let schema = json(##"{"type": "object", "properties": {"id": {"type": "integer"}}}"##)
        XCTAssertTrue(validator().isValid(json(##"{"id": 1, "extra": true}"##), against: schema))
        let strict = validator(options: SchemaOptions(strictExtraFields: true)).validate(
            json(##"{"id": 1, "extra": true}"##), against: schema)
        XCTAssertEqual(strict.violations.map(\.instancePathText), ["$.extra"])
    }

    func testUnknownFormatsAndUnsupportedKeywordsAreWarnedNotPassedSilently() {
        let outcome = validator().validate(
            json(##""x""##), against: json(##"{"type": "string", "format": "color", "unevaluatedProperties": false}"##))
        XCTAssertTrue(outcome.isValid)
        XCTAssertEqual(outcome.warnings.count, 2)
        XCTAssertTrue(outcome.warnings.contains { $0.contains("unknown format `color`") })
        XCTAssertTrue(outcome.warnings.contains { $0.contains("unevaluatedProperties") })
    }

    func testAPatternTheEngineCannotRunIsAWarning() {
        let outcome = validator().validate(json(##""abc""##), against: json(##"{"pattern": "(?=a)b"}"##))
        XCTAssertTrue(outcome.isValid)
        XCTAssertTrue(outcome.warnings.first?.contains("not supported") == true)
        XCTAssertFalse(validator().isValid(json(##""xyz""##), against: json(##"{"pattern": "^a"}"##)))
        XCTAssertTrue(
            validator().isValid(json(##""xaz""##), against: json(##"{"pattern": "a"}"##)), "unanchored, as ECMA-262")
    }

    func testARefCycleThatConsumesNothingEndsWithAViolation() {
        let root = json(##"{"A": {"$ref": "#/A"}}"##)
        let outcome = validator(.draft202012, root).validate(.null, against: json(##"{"$ref": "#/A"}"##))
        XCTAssertFalse(outcome.isValid)
    }
}
