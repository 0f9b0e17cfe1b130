import Foundation
import XCTest
@testable import UnderstudyStubs
import UnderstudyStubFormat

/// The stub format is defined once (``StubFormat``); this holds everything else to it, both ways:
/// the JSON Schema's properties and enums, the engine's enums, and the field reference page
/// (`docs/stub-format.md`). A field added to the model and not to the schema (or the reverse), or
/// not named on the page, fails here, naming the field and the object.
final class StubFormatDriftTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where each object's properties sit in `schema/understudy-stubs.schema.json`.
    private static let schemaLocations: [StubFormat.Object: [String]] = [
        .document: ["properties"],
        .stub: ["$defs", "stub", "properties"],
        .request: ["$defs", "request", "properties"],
        .valueMatcher: ["$defs", "valueMatcher", "oneOf", "1", "properties"],
        .bodyMatcher: ["$defs", "bodyMatcher", "properties"],
        .jsonEquals: ["$defs", "bodyMatcher", "properties", "jsonEquals", "properties"],
        .jsonPath: ["$defs", "bodyMatcher", "properties", "jsonPath", "oneOf", "1", "properties"],
        .xmlEquals: ["$defs", "bodyMatcher", "properties", "xmlEquals", "oneOf", "1", "properties"],
        .xPath: ["$defs", "bodyMatcher", "properties", "xPath", "oneOf", "1", "properties"],
        .rateLimit: ["$defs", "rateLimit", "properties"],
        .response: ["$defs", "response", "properties"],
        .retryAfter: ["$defs", "response", "properties", "retryAfter", "oneOf", "1", "properties"],
        .delayDistribution: ["$defs", "response", "properties", "delayMs", "oneOf", "*", "properties"],
        .lognormal: [
            "$defs", "response", "properties", "delayMs", "oneOf", "2", "properties", "lognormal", "properties",
        ],
        .dribble: ["$defs", "response", "properties", "dribble", "properties"],
        .event: ["$defs", "response", "properties", "events", "items", "properties"],
        .fault: ["$defs", "response", "properties", "fault", "oneOf", "1", "properties"],
        .rstStream: [
            "$defs", "response", "properties", "fault", "oneOf", "1", "properties", "rstStream", "properties",
        ],
        .goaway: ["$defs", "response", "properties", "fault", "oneOf", "1", "properties", "goaway", "properties"],
        .proxy: ["$defs", "response", "properties", "proxy", "properties"],
        .idempotency: ["$defs", "idempotency", "properties"],
        .webhook: ["$defs", "webhook", "properties"],
        .signing: ["$defs", "signing", "properties"],
        .backoff: ["$defs", "webhook", "properties", "retry", "oneOf", "2", "properties"],
    ]

    /// Where `fault`'s object form lists its members.
    private static let faultObject = ["$defs", "response", "properties", "fault", "oneOf", "1", "properties"]

    /// Each enumerated value set, with where the schema lists it.
    private static let vocabularies: [(name: String, values: [String], schema: [String])] = [
        (
            "afterLast", StubFormat.AfterLast.allCases.map(\.rawValue),
            ["$defs", "stub", "properties", "afterLast", "enum"]
        ),
        (
            "fault", StubFormat.Fault.allCases.map(\.rawValue),
            ["$defs", "response", "properties", "fault", "oneOf", "0", "enum"]
        ),
        (
            "fault.rstStream.errorCode", StubFormat.HTTP2ErrorCode.allCases.map(\.rawValue),
            StubFormatDriftTests.faultObject + ["rstStream", "properties", "errorCode", "enum"]
        ),
        (
            "fault.goaway.errorCode", StubFormat.HTTP2ErrorCode.allCases.map(\.rawValue),
            StubFormatDriftTests.faultObject + ["goaway", "properties", "errorCode", "enum"]
        ),
        (
            "fault.goaway.lastStreamId", StubFormat.GoawayLastStream.names,
            StubFormatDriftTests.faultObject + ["goaway", "properties", "lastStreamId", "oneOf", "0", "enum"]
        ),
        (
            "fault.goaway.inFlight", StubFormat.GoawayInFlight.allCases.map(\.rawValue),
            StubFormatDriftTests.faultObject + ["goaway", "properties", "inFlight", "enum"]
        ),
        (
            "rateLimit.algorithm", StubFormat.RateLimitAlgorithm.allCases.map(\.rawValue),
            ["$defs", "rateLimit", "properties", "algorithm", "enum"]
        ),
        (
            "rateLimit.retryAfter", StubFormat.RateLimitRetryAfter.allCases.map(\.rawValue),
            ["$defs", "rateLimit", "properties", "retryAfter", "enum"]
        ),
        (
            "rateLimit.headers", StubFormat.RateLimitHeaders.allCases.map(\.rawValue),
            ["$defs", "rateLimit", "properties", "headers", "enum"]
        ),
        (
            "retry", StubFormat.RetryPreset.allCases.map(\.rawValue),
            ["$defs", "webhook", "properties", "retry", "oneOf", "1", "enum"]
        ),
        (
            "signing.format", StubFormat.SigningFormat.allCases.map(\.rawValue),
            ["$defs", "signing", "properties", "format", "enum"]
        ),
        (
            "signing.mistake", StubFormat.SigningMistake.allCases.map(\.rawValue),
            ["$defs", "signing", "properties", "mistake", "enum"]
        ),
        (
            "signing.signed", StubFormat.SignedContent.allCases.map(\.rawValue),
            ["$defs", "signing", "properties", "signed", "enum"]
        ),
        (
            "signing.encoding", StubFormat.SignatureEncoding.allCases.map(\.rawValue),
            ["$defs", "signing", "properties", "encoding", "enum"]
        ),
    ]

    private func schema() throws -> JSONValue {
        let bytes = try Data(contentsOf: Self.root.appendingPathComponent("schema/understudy-stubs.schema.json"))
        return try XCTUnwrap(JSONValue.parse(Array(bytes)), "the schema is not JSON")
    }

    /// The values at `path` (`*`: every element of an array, merged).
    private func values(at path: [String], in value: JSONValue) -> [JSONValue] {
        guard let step = path.first else { return [value] }
        let rest = Array(path.dropFirst())
        switch value {
        case .object:
            return value[step].map { values(at: rest, in: $0) } ?? []
        case .array(let elements):
            if step == "*" { return elements.flatMap { values(at: rest, in: $0) } }
            guard let index = Int(step), elements.indices.contains(index) else { return [] }
            return values(at: rest, in: elements[index])
        default:
            return []
        }
    }

    func testEveryObjectsKeysAreTheSchemasPropertiesBothWays() throws {
        let schema = try schema()
        XCTAssertEqual(
            Set(Self.schemaLocations.keys), Set(StubFormat.Object.allCases), "every object has a place in the schema")
        for object in StubFormat.Object.allCases {
            let found = values(at: Self.schemaLocations[object] ?? [], in: schema)
            XCTAssertFalse(found.isEmpty, "\(object): no properties at \(Self.schemaLocations[object] ?? [])")
            let schemaKeys = Set(found.flatMap { $0.members?.map(\.key) ?? [] })
            let modelKeys = Set(object.keys)
            XCTAssertEqual(
                modelKeys.subtracting(schemaKeys).sorted(), [], "\(object): in StubFormat but not in the schema")
            XCTAssertEqual(
                schemaKeys.subtracting(modelKeys).sorted(), [], "\(object): in the schema but not in StubFormat")
        }
    }

    func testEveryEnumeratedValueIsTheSchemasBothWays() throws {
        let schema = try schema()
        for vocabulary in Self.vocabularies {
            let listed = values(at: vocabulary.schema, in: schema).first?.arrayValue?.compactMap(\.stringValue) ?? []
            XCTAssertEqual(
                Set(vocabulary.values).subtracting(listed).sorted(), [],
                "\(vocabulary.name): in StubFormat but not in the schema")
            XCTAssertEqual(
                Set(listed).subtracting(vocabulary.values).sorted(), [],
                "\(vocabulary.name): in the schema but not in StubFormat")
        }
    }

    /// The engine serves the format's enums themselves (no copies to keep in step).
    func testTheEngineUsesTheFormatsEnums() {
        XCTAssertTrue(AfterLast.self == StubFormat.AfterLast.self)
        XCTAssertTrue(Fault.self == StubFormat.Fault.self)
        XCTAssertTrue(HTTP2ErrorCode.self == StubFormat.HTTP2ErrorCode.self)
        XCTAssertTrue(GoawayLastStream.self == StubFormat.GoawayLastStream.self)
        XCTAssertTrue(RateLimitRule.Algorithm.self == StubFormat.RateLimitAlgorithm.self)
        XCTAssertTrue(RateLimitRule.RetryAfterFormat.self == StubFormat.RateLimitRetryAfter.self)
        XCTAssertTrue(RateLimitRule.HeaderDialect.self == StubFormat.RateLimitHeaders.self)
    }

    /// The loader accepts exactly the format's keys (its key lists are the format's).
    func testTheLoaderKnowsEveryKey() {
        XCTAssertEqual(StubDecoder.stubKeys, StubFormat.Object.stub.keys)
        XCTAssertEqual(StubDecoder.requestKeys, StubFormat.Object.request.keys)
        XCTAssertEqual(StubDecoder.responseKeys, StubFormat.Object.response.keys)
        XCTAssertEqual(StubDecoder.valueMatcherKeys, StubFormat.Object.valueMatcher.keys)
        XCTAssertEqual(StubDecoder.bodyMatcherKeys, StubFormat.Object.bodyMatcher.keys)
    }

    /// The field reference page names every key and value (as code).
    func testTheFieldReferenceNamesEveryKeyAndValue() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/stub-format.md"), encoding: .utf8)
        for object in StubFormat.Object.allCases {
            for key in object.keys where !text.contains("`\(key)`") {
                XCTFail("docs/stub-format.md does not name `\(key)` (\(object))")
            }
        }
        for vocabulary in Self.vocabularies {
            for value in vocabulary.values where !text.contains("`\(value)`") && !text.contains("\"\(value)\"") {
                XCTFail("docs/stub-format.md does not name \(vocabulary.name) value `\(value)`")
            }
        }
    }
}
