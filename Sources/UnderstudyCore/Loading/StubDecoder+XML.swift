import UnderstudyStubFormat

/// XML body matchers, native (`xmlEquals`, `xPath`) and WireMock's (`equalToXml`, `matchesXPath`),
/// compiled by the installed ``XMLMatching`` (see ``XMLSupport``).
extension StubDecoder {
    static let xmlEqualsKeys = StubFormat.Object.xmlEquals.keys
    static let xPathKeys = StubFormat.Object.xPath.keys

    /// `{"xmlEquals": "<a/>"}` or `{"xmlEquals": {"value": "<a/>", "placeholders": true, ...}}`.
    mutating func xmlEqualsMatcher(_ node: JSONNode, _ path: JSONPath) -> BodyMatcher? {
        if let document = node.stringValue { return compileXMLEquals(document, XMLComparison(), node, path) }
        guard node.members != nil else {
            typeMismatch(
                node, path, expected: "an XML document string or {\"value\": \"<a/>\", \"placeholders\": true}")
            return nil
        }
        let keys = members(of: node, path, known: Self.xmlEqualsKeys)
        guard let value = keys["value"] else {
            fail(node.position, path, "missing key `value` (the XML document the body must equal)")
            return nil
        }
        guard let document = string(value.value, path.member("value")) else { return nil }
        var options = XMLComparison()
        options.placeholders = keys["placeholders"].flatMap { boolean($0.value, path.member("placeholders")) } ?? false
        options.openingDelimiter = keys["placeholderOpening"].flatMap {
            nonEmptyString($0.value, path.member("placeholderOpening"), what: "a regular expression such as `\\[\\[`")
        }
        options.closingDelimiter = keys["placeholderClosing"].flatMap {
            nonEmptyString($0.value, path.member("placeholderClosing"), what: "a regular expression such as `]]`")
        }
        if let exempted = keys["exemptedComparisons"] {
            options.exemptedComparisons = stringList(exempted.value, path.member("exemptedComparisons")) ?? []
        }
        return compileXMLEquals(document, options, value.value, path.member("value"))
    }

    /// `{"xPath": "//a"}` or `{"xPath": {"expression": "//p:a", "namespaces": {"p": "urn:x"}, "matcher": m}}`.
    mutating func xPathMatcher(_ node: JSONNode, _ path: JSONPath) -> BodyMatcher? {
        if node.stringValue != nil { return compileXPath(node, path, namespaces: [], matcher: nil) }
        guard node.members != nil else {
            typeMismatch(node, path, expected: "an XPath string or {\"expression\": \"//a\", \"matcher\": ...}")
            return nil
        }
        let keys = members(of: node, path, known: Self.xPathKeys)
        guard let expression = keys["expression"] else {
            fail(node.position, path, "missing key `expression` (an XPath such as `//order/id`)")
            return nil
        }
        let namespaces = keys["namespaces"].flatMap { xmlNamespaces($0.value, path.member("namespaces")) } ?? []
        var matcher: ValueMatcher?
        if let matcherNode = keys["matcher"] {
            guard let decoded = valueMatcher(matcherNode.value, path.member("matcher")) else { return nil }
            matcher = decoded
        }
        return compileXPath(expression.value, path.member("expression"), namespaces: namespaces, matcher: matcher)
    }

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
        return compileXMLEquals(document, options, op, path.member("equalToXml"), wireMockKey: "equalToXml")
    }

    /// WireMock's `{"matchesXPath": "//a", "xPathNamespaces": {...}}` or
    /// `{"matchesXPath": {"expression": "//a/text()", "equalTo": "1"}}`.
    mutating func wireMockXPath(_ op: JSONNode, _ keys: ObjectMembers, _ path: JSONPath) -> BodyMatcher? {
        let opPath = path.member("matchesXPath")
        let namespaces =
            keys["xPathNamespaces"].flatMap { xmlNamespaces($0.value, path.member("xPathNamespaces")) } ?? []
        if op.stringValue != nil {
            return compileXPath(op, opPath, namespaces: namespaces, matcher: nil, wireMockKey: "matchesXPath")
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
            wireMockKey: "matchesXPath")
    }

    private mutating func compileXMLEquals(
        _ document: String, _ options: XMLComparison, _ node: JSONNode, _ path: JSONPath, wireMockKey: String? = nil
    ) -> BodyMatcher? {
        guard let matching = xmlMatching(node, path, wireMockKey: wireMockKey) else { return nil }
        do {
            let condition = try matching.equality(to: document, options)
            return .xmlEquals(XMLExpectation(document: document, options: options, condition: condition))
        } catch {
            fail(node.position, path, error.message)
            return nil
        }
    }

    private mutating func compileXPath(
        _ node: JSONNode, _ path: JSONPath, namespaces: [XMLNamespace], matcher: ValueMatcher?,
        wireMockKey: String? = nil
    ) -> BodyMatcher? {
        guard let expression = nonEmptyString(node, path, what: "an XPath such as `//order/id`") else { return nil }
        guard let matching = xmlMatching(node, path, wireMockKey: wireMockKey) else { return nil }
        do {
            let selector = try matching.xPath(expression, namespaces: namespaces)
            return .xPath(XPathQuery(expression: expression, namespaces: namespaces, selector: selector), matcher)
        } catch {
            fail(node.position, path, error.message)
            return nil
        }
    }

    /// The installed matcher, or nil with an error: for a WireMock mapping worded as an unsupported
    /// feature, so the mapping is skipped as other unsupported ones are.
    private mutating func xmlMatching(_ node: JSONNode, _ path: JSONPath, wireMockKey: String?) -> (any XMLMatching)? {
        if let installed = XMLSupport.installed { return installed }
        let reason = "XML matching is not available in this program (no XMLMatching installed)"
        if let wireMockKey {
            fail(node.position, path, "unsupported WireMock feature `\(wireMockKey)`: \(reason)")
        } else {
            fail(node.position, path, reason)
        }
        return nil
    }

    /// `{"prefix": "uri", ...}`.
    private mutating func xmlNamespaces(_ node: JSONNode, _ path: JSONPath) -> [XMLNamespace]? {
        guard let members = node.members else {
            typeMismatch(node, path, expected: "an object of prefix → namespace URI")
            return nil
        }
        return members.compactMap { member in
            string(member.value, path.member(member.key)).map { XMLNamespace(prefix: member.key, uri: $0) }
        }
    }

    private mutating func stringList(_ node: JSONNode, _ path: JSONPath) -> [String]? {
        guard let elements = node.elements else {
            typeMismatch(node, path, expected: "an array of strings")
            return nil
        }
        return elements.enumerated().compactMap { string($1, path.element($0)) }
    }
}
