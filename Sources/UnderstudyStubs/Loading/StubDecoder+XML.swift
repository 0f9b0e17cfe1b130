import UnderstudyStubFormat

/// XML body matchers (`xmlEquals`, `xPath`; format adapters compile theirs with the same
/// `compileXMLEquals` and `compileXPath`), compiled by the installed ``XMLMatching`` (see ``XMLSupport``).
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

    package mutating func compileXMLEquals(
        _ document: String, _ options: XMLComparison, _ node: JSONNode, _ path: JSONPath,
        unsupportedFeature: String? = nil
    ) -> BodyMatcher? {
        guard let matching = xmlMatching(node, path, unsupportedFeature: unsupportedFeature) else { return nil }
        do {
            let condition = try matching.equality(to: document, options)
            return .xmlEquals(XMLExpectation(document: document, options: options, condition: condition))
        } catch {
            fail(node.position, path, error.message)
            return nil
        }
    }

    package mutating func compileXPath(
        _ node: JSONNode, _ path: JSONPath, namespaces: [XMLNamespace], matcher: ValueMatcher?,
        unsupportedFeature: String? = nil
    ) -> BodyMatcher? {
        guard let expression = nonEmptyString(node, path, what: "an XPath such as `//order/id`") else { return nil }
        guard let matching = xmlMatching(node, path, unsupportedFeature: unsupportedFeature) else { return nil }
        do {
            let selector = try matching.xPath(expression, namespaces: namespaces)
            return .xPath(XPathQuery(expression: expression, namespaces: namespaces, selector: selector), matcher)
        } catch {
            fail(node.position, path, error.message)
            return nil
        }
    }

    /// The installed matcher, or nil with an error: for a format adapter's key (`unsupportedFeature`,
    /// such as "WireMock feature `equalToXml`") worded as an unsupported feature, so the adapter
    /// skips the stub as it skips other unsupported ones.
    private mutating func xmlMatching(_ node: JSONNode, _ path: JSONPath, unsupportedFeature: String?) -> (
        any XMLMatching
    )? {
        if let installed = XMLSupport.installed { return installed }
        let reason = "XML matching is not available in this program (no XMLMatching installed)"
        if let unsupportedFeature {
            fail(node.position, path, "unsupported \(unsupportedFeature): \(reason)")
        } else {
            fail(node.position, path, reason)
        }
        return nil
    }

    /// `{"prefix": "uri", ...}`.
    package mutating func xmlNamespaces(_ node: JSONNode, _ path: JSONPath) -> [XMLNamespace]? {
        guard let members = node.members else {
            typeMismatch(node, path, expected: "an object of prefix → namespace URI")
            return nil
        }
        return members.compactMap { member in
            string(member.value, path.member(member.key)).map { XMLNamespace(prefix: member.key, uri: $0) }
        }
    }

    package mutating func stringList(_ node: JSONNode, _ path: JSONPath) -> [String]? {
        guard let elements = node.elements else {
            typeMismatch(node, path, expected: "an array of strings")
            return nil
        }
        return elements.enumerated().compactMap { string($1, path.element($0)) }
    }
}
