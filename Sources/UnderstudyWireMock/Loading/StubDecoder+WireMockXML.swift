import UnderstudyCore
import UnderstudyJSON

/// WireMock's XML body matchers (`equalToXml`, `matchesXPath`), compiled by UnderstudyStubs' XML seam like
/// the native `xmlEquals` and `xPath`.
extension StubDecoder {
    /// WireMock's `{"equalToXml": "<a/>", "enablePlaceholders": true, ...}`; `keys` are the body
    /// pattern's members.
    mutating func wireMockXMLEquals(_ op: JSONNode, _ keys: ObjectMembers, _ path: JSONPath) -> BodyMatcher? {
        guard let document = string(op, path.member("equalToXml")) else { return nil }
        var options = XMLComparison()
        options.placeholders =
            keys["enablePlaceholders"].flatMap { boolean($0.value, path.member("enablePlaceholders")) } ?? false
        options.openingDelimiter = keys["placeholderOpeningDelimiterRegex"].flatMap {
            string($0.value, path.member("placeholderOpeningDelimiterRegex"))
        }
        options.closingDelimiter = keys["placeholderClosingDelimiterRegex"].flatMap {
            string($0.value, path.member("placeholderClosingDelimiterRegex"))
        }
        if let exempted = keys["exemptedComparisons"] {
            options.exemptedComparisons = stringList(exempted.value, path.member("exemptedComparisons")) ?? []
        }
        return compileXMLEquals(
            document, options, op, path.member("equalToXml"), unsupportedFeature: "WireMock feature `equalToXml`")
    }

    /// WireMock's `{"matchesXPath": "//a", "xPathNamespaces": {...}}` or
    /// `{"matchesXPath": {"expression": "//a/text()", "equalTo": "1"}}`.
    mutating func wireMockXPath(_ op: JSONNode, _ keys: ObjectMembers, _ path: JSONPath) -> BodyMatcher? {
        let opPath = path.member("matchesXPath")
        let namespaces =
            keys["xPathNamespaces"].flatMap { xmlNamespaces($0.value, path.member("xPathNamespaces")) } ?? []
        if op.stringValue != nil {
            return compileXPath(
                op, opPath, namespaces: namespaces, matcher: nil, unsupportedFeature: "WireMock feature `matchesXPath`")
        }
        guard let inner = op.members, let expression = inner.first(where: { $0.key == "expression" }) else {
            typeMismatch(op, opPath, expected: "an XPath or {\"expression\": \"//a\", \"equalTo\": ...}")
            return nil
        }
        let others = inner.filter { $0.key != "expression" }
        if let nested = others.first(where: { ["equalToXml", "equalToJson", "matchesJsonPath"].contains($0.key) }) {
            fail(
                nested.keyPosition, opPath.member(nested.key),
                "unsupported WireMock feature `\(nested.key)`: under `matchesXPath` only the string matchers (`equalTo`, `contains`, `matches`, ...) are supported"
            )
            return nil
        }
        var matcher: ValueMatcher?
        if !others.isEmpty {
            guard let decoded = wireMockValueMatcher(JSONNode(kind: .object(others), position: op.position), opPath)
            else { return nil }
            matcher = decoded
        }
        return compileXPath(
            expression.value, opPath.member("expression"), namespaces: namespaces, matcher: matcher,
            unsupportedFeature: "WireMock feature `matchesXPath`")
    }

}
