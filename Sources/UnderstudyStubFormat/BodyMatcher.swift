#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a stub (or `find`/`count`) matches a request body.
public indirect enum BodyMatcher: Sendable, Equatable {
    /// The whole body is exactly this text.
    case equals(String)
    /// The whole body is this text, ignoring case: `{"equalsIgnoringCase": s}`.
    case equalsIgnoringCase(String)
    /// The body contains this text.
    case contains(String)
    /// The body does not contain this text: `{"doesNotContain": s}`.
    case doesNotContain(String)
    /// The regular expression matches the whole body.
    case matches(String)
    /// The regular expression does not match the whole body: `{"doesNotMatch": regex}`.
    case doesNotMatch(String)
    /// The body is JSON equal to this (key order and number spelling ignored).
    case json(JSONValue)
    /// The body is JSON containing at least this (extra keys allowed).
    case jsonSubset(JSONValue)
    /// The body is JSON equal to `value`, optionally ignoring array order and extra members or
    /// elements: `{"jsonEquals": {"value": v, "ignoreArrayOrder": true, "ignoreExtraElements": true}}`
    /// (an option is written only when on; off is the format's default). With `placeholders`,
    /// JsonUnit's `${json-unit.any-string}`, `any-number`, `any-boolean`, `ignore` and
    /// `ignore-element` in `value` stand for what they name.
    case jsonEquals(
        JSONValue, ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false, placeholders: Bool = false)
    /// The JSON path selects something (not `null`, not an empty object or array), or, with
    /// `matcher`, a value whose text (or an element of a selected array) satisfies it, or nothing
    /// and the matcher accepts a missing value (`absent`): `{"jsonPath": "$.a"}` or
    /// `{"jsonPath": {"expression": "$.a", "matcher": m}}`.
    case jsonPath(String, ValueMatcher? = nil)
    /// The value the JSON path selects (a definite path's value, or the array of what an indefinite
    /// one selects) is JSON equal to `value` under the options:
    /// `{"jsonPath": {"expression": "$.a", "jsonEquals": {"value": v, "ignoreArrayOrder": true}}}`.
    case jsonPathEquals(
        String, JSONValue, ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false,
        placeholders: Bool = false)
    /// The body is XML equal to this document (whitespace between elements, comments, attribute
    /// order, namespace prefixes and the order of differently named children ignored):
    /// `{"xmlEquals": "<a/>"}`; with `placeholders`, XMLUnit's `${xmlunit.ignore}`,
    /// `${xmlunit.isNumber}` and `${xmlunit.matchesRegex(…)}` stand for what they name, between
    /// the delimiters given as regular expressions (`\$\{` and `\}` by default);
    /// `exemptedComparisons` names XMLUnit comparison types that may differ.
    case xmlEquals(
        String, placeholders: Bool = false, placeholderOpening: String? = nil, placeholderClosing: String? = nil,
        exemptedComparisons: [String] = [])
    /// The XPath selects a node, or, with `matcher`, a node whose text (an element as XML)
    /// satisfies it: `{"xPath": "//a"}` or
    /// `{"xPath": {"expression": "//p:a/text()", "namespaces": {"p": "urn:x"}, "matcher": m}}`.
    case xPath(String, namespaces: [String: String] = [:], ValueMatcher? = nil)
    /// The body is exactly these bytes: `{"binary": base64}`.
    case binary(Data)
    /// Every matcher matches: `{"allOf": [...]}` (at least one).
    case allOf([BodyMatcher])
    /// Some matcher matches: `{"anyOf": [...]}` (at least one).
    case anyOf([BodyMatcher])
    /// The matcher does not match: `{"not": matcher}`.
    case not(BodyMatcher)
    /// The body is an `application/x-www-form-urlencoded` form whose fields satisfy these matchers,
    /// in any order: `{"form": {"amount": "2000", "metadata[order]": {"present": true}}}`. A
    /// repeated field matches when one of its values does; names are compared as written
    /// (percent-decoded), brackets included.
    case form([String: ValueMatcher])

    /// The matcher as the stub format writes it.
    public var json: JSONValue {
        switch self {
        case .equals(let text): ["equals": .string(text)]
        case .equalsIgnoringCase(let text): ["equalsIgnoringCase": .string(text)]
        case .contains(let text): ["contains": .string(text)]
        case .doesNotContain(let text): ["doesNotContain": .string(text)]
        case .matches(let pattern): ["matches": .string(pattern)]
        case .doesNotMatch(let pattern): ["doesNotMatch": .string(pattern)]
        case .json(let value): ["json": value]
        case .jsonSubset(let value): ["jsonSubset": value]
        case let .jsonEquals(value, ignoreArrayOrder, ignoreExtraElements, placeholders):
            [
                "jsonEquals": .object(
                    [JSONMember("value", value)]
                        + (ignoreArrayOrder ? [JSONMember("ignoreArrayOrder", true)] : [])
                        + (ignoreExtraElements ? [JSONMember("ignoreExtraElements", true)] : [])
                        + (placeholders ? [JSONMember("placeholders", true)] : []))
            ]
        case let .jsonPath(expression, matcher):
            [
                "jsonPath": matcher.map { ["expression": .string(expression), "matcher": $0.json] }
                    ?? .string(expression)
            ]
        case let .jsonPathEquals(expression, value, ignoreArrayOrder, ignoreExtraElements, placeholders):
            [
                "jsonPath": [
                    "expression": .string(expression),
                    "jsonEquals": BodyMatcher.jsonEquals(
                        value, ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements,
                        placeholders: placeholders
                    ).json["jsonEquals"]!,
                ]
            ]
        case let .xmlEquals(document, placeholders, opening, closing, exempted):
            [
                "xmlEquals": !placeholders && opening == nil && closing == nil && exempted.isEmpty
                    ? .string(document)
                    : .object(
                        [JSONMember("value", .string(document))]
                            + (placeholders ? [JSONMember("placeholders", true)] : [])
                            + (opening.map { [JSONMember("placeholderOpening", .string($0))] } ?? [])
                            + (closing.map { [JSONMember("placeholderClosing", .string($0))] } ?? [])
                            + (exempted.isEmpty
                                ? [] : [JSONMember("exemptedComparisons", .array(exempted.map(JSONValue.string)))]))
            ]
        case let .xPath(expression, namespaces, matcher):
            [
                "xPath": namespaces.isEmpty && matcher == nil
                    ? .string(expression)
                    : .object(
                        [JSONMember("expression", .string(expression))]
                            + (namespaces.isEmpty
                                ? []
                                : [
                                    JSONMember(
                                        "namespaces",
                                        .object(
                                            namespaces.sorted { $0.key < $1.key }.map {
                                                JSONMember($0.key, .string($0.value))
                                            }))
                                ])
                            + (matcher.map { [JSONMember("matcher", $0.json)] } ?? []))
            ]
        case .binary(let bytes): ["binary": .string(bytes.base64EncodedString())]
        case .allOf(let matchers): ["allOf": .array(matchers.map(\.json))]
        case .anyOf(let matchers): ["anyOf": .array(matchers.map(\.json))]
        case .not(let matcher): ["not": matcher.json]
        case .form(let fields):
            ["form": .object(fields.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value.json) })]
        }
    }
}
