import UnderstudyStubFormat
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The matchers and request keys added for parity with WireMock: `url`/`urlPattern` (path and
/// query as sent), `equalsIgnoringCase`, `doesNotContain`, `doesNotMatch`, `allOf`, `anyOf`, `not`,
/// and for bodies also `jsonEquals` (with options), `jsonPath` and `binary`.
extension StubDecoder {
    static let extraValueMatcherKeys = [
        "equalsIgnoringCase", "doesNotContain", "doesNotMatch", "allOf", "anyOf", "not",
    ]
    static let jsonEqualsKeys = StubFormat.Object.jsonEquals.keys
    static let jsonPathKeys = StubFormat.Object.jsonPath.keys

    /// `url` or `urlPattern`, refusing a second path condition beside it; nil when neither is given.
    mutating func decodeTarget(_ keys: ObjectMembers, _ path: JSONPath) -> PathMatcher? {
        let given = ["path", "pathPattern", "url", "urlPattern"].compactMap { keys[$0] }
        guard let target = given.first(where: { $0.key == "url" || $0.key == "urlPattern" }) else { return nil }
        if given.count > 1 {
            let later = given.max {
                ($0.keyPosition.line, $0.keyPosition.column) < ($1.keyPosition.line, $1.keyPosition.column)
            }!
            fail(later.keyPosition, path.member(later.key), "give one of `path`, `pathPattern`, `url`, `urlPattern`")
            return .exactTarget("")
        }
        let memberPath = path.member(target.key)
        if target.key == "urlPattern" {
            return regex(target.value, memberPath).map(PathMatcher.targetPattern) ?? .exactTarget("")
        }
        guard let text = string(target.value, memberPath) else { return .exactTarget("") }
        guard text.hasPrefix("/") else {
            fail(target.value.position, memberPath, "`url` must start with `/`, found `\(text)`")
            return .exactTarget("")
        }
        return .exactTarget(text)
    }

    mutating func extraValueMatcher(_ member: JSONNode.Member, _ path: JSONPath) -> ValueMatcher? {
        switch member.key {
        case "equalsIgnoringCase": return string(member.value, path).map(ValueMatcher.equalsIgnoringCase)
        case "doesNotContain": return string(member.value, path).map(ValueMatcher.doesNotContain)
        case "doesNotMatch": return regex(member.value, path).map(ValueMatcher.doesNotMatch)
        case "not": return valueMatcher(member.value, path).map(ValueMatcher.not)
        default:
            guard let inner = matcherList(member.value, path, kind: "matchers", decode: { $0.valueMatcher($1, $2) })
            else { return nil }
            return member.key == "allOf" ? .allOf(inner) : .anyOf(inner)
        }
    }

    /// The operands of `allOf`/`anyOf`: a non-empty array whose every element decodes, or nil
    /// (with the errors recorded) — shared by value and body matchers.
    mutating func matcherList<Matcher>(
        _ node: JSONNode, _ path: JSONPath, kind: String,
        decode: (inout StubDecoder, JSONNode, JSONPath) -> Matcher?
    ) -> [Matcher]? {
        guard let elements = node.elements, !elements.isEmpty else {
            typeMismatch(node, path, expected: "a non-empty array of \(kind)")
            return nil
        }
        let before = errors.count
        var inner: [Matcher] = []
        for (index, element) in elements.enumerated() {
            if let matcher = decode(&self, element, path.element(index)) { inner.append(matcher) }
        }
        return errors.count == before ? inner : nil
    }

    mutating func extraBodyMatcher(_ member: JSONNode.Member, _ path: JSONPath) -> BodyMatcher? {
        switch member.key {
        case "equalsIgnoringCase": return string(member.value, path).map(BodyMatcher.equalsIgnoringCase)
        case "doesNotContain": return string(member.value, path).map(BodyMatcher.doesNotContain)
        case "doesNotMatch": return regex(member.value, path).map(BodyMatcher.doesNotMatch)
        case "not": return bodyMatcher(member.value, path).map(BodyMatcher.not)
        case "binary":
            guard let text = string(member.value, path) else { return nil }
            guard let data = Data(base64Encoded: text) else {
                fail(member.value.position, path, "`binary` is not valid base64")
                return nil
            }
            return .binaryEquals(Array(data))
        case "jsonEquals":
            return jsonEqualsOptions(member.value, path).map { .jsonEquals($0.value, $0.options) }
        case "xmlEquals": return xmlEqualsMatcher(member.value, path)
        case "xPath": return xPathMatcher(member.value, path)
        case "jsonPath":
            if member.value.stringValue != nil {
                return jsonPathExpression(member.value, path).map { .jsonPath($0, nil) }
            }
            guard member.value.members != nil else {
                typeMismatch(
                    member.value, path, expected: "a JSON path string or {\"expression\": ..., \"matcher\": ...}")
                return nil
            }
            let keys = members(of: member.value, path, known: Self.jsonPathKeys)
            guard let expressionNode = keys["expression"] else {
                fail(member.value.position, path, "missing key `expression` (a JSON path such as `$.items[0].id`)")
                return nil
            }
            guard let expression = jsonPathExpression(expressionNode.value, path.member("expression")) else {
                return nil
            }
            if let equals = keys["jsonEquals"] {
                if let matcher = keys["matcher"] {
                    fail(matcher.keyPosition, path.member("matcher"), "give `matcher` or `jsonEquals`, not both")
                    return nil
                }
                return jsonEqualsOptions(equals.value, path.member("jsonEquals")).map {
                    .jsonPathEquals(expression, $0.value, $0.options)
                }
            }
            guard let matcherNode = keys["matcher"] else { return .jsonPath(expression, nil) }
            return valueMatcher(matcherNode.value, path.member("matcher")).map { .jsonPath(expression, $0) }
        default:
            guard let inner = matcherList(member.value, path, kind: "body matchers", decode: { $0.bodyMatcher($1, $2) })
            else { return nil }
            return member.key == "allOf" ? .allOf(inner) : .anyOf(inner)
        }
    }

    /// `{"value": v, "ignoreArrayOrder": bool, "ignoreExtraElements": bool, "placeholders": bool}` (`jsonEquals`, also
    /// under `jsonPath`).
    package mutating func jsonEqualsOptions(_ node: JSONNode, _ path: JSONPath) -> (
        value: JSONValue, options: JSONComparison
    )? {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "an object like {\"value\": ..., \"ignoreArrayOrder\": true}")
            return nil
        }
        let keys = members(of: node, path, known: Self.jsonEqualsKeys)
        guard let value = keys["value"] else {
            fail(node.position, path, "missing key `value` (the JSON the body must equal)")
            return nil
        }
        let order = keys["ignoreArrayOrder"].flatMap { boolean($0.value, path.member("ignoreArrayOrder")) } ?? false
        let extra =
            keys["ignoreExtraElements"].flatMap { boolean($0.value, path.member("ignoreExtraElements")) } ?? false
        let placeholders = keys["placeholders"].flatMap { boolean($0.value, path.member("placeholders")) } ?? false
        if placeholders, let unsupported = JSONUnitPlaceholder.firstUnsupported(in: value.value.value) {
            fail(value.value.position, path.member("value"), "unsupported JsonUnit placeholder `\(unsupported)`")
        }
        return (
            value.value.value,
            JSONComparison(ignoreArrayOrder: order, ignoreExtraElements: extra, placeholders: placeholders)
        )
    }

    package mutating func jsonPathExpression(_ node: JSONNode, _ path: JSONPath) -> JSONPathExpression? {
        guard let text = string(node, path) else { return nil }
        do {
            return try JSONPathExpression(text)
        } catch let error as JSONPathExpression.SyntaxError {
            fail(node.position, path, "unsupported JSON path `\(text)`: \(error.message)")
        } catch {
            fail(node.position, path, "unsupported JSON path `\(text)`")
        }
        return nil
    }

    package mutating func boolean(_ node: JSONNode, _ path: JSONPath) -> Bool? {
        guard case .bool(let value) = node.kind else {
            typeMismatch(node, path, expected: "true or false")
            return nil
        }
        return value
    }
}
