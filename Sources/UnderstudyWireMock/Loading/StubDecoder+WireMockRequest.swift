#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyJSON

/// WireMock's `request` object and its matchers, decoded into a native ``RequestPattern``.
extension StubDecoder {
    static let wireMockRequestKeys = [
        "method", "url", "urlPath", "urlPattern", "urlPathPattern", "queryParameters", "headers",
        "cookies", "bodyPatterns", "basicAuthCredentials", "basicAuth", "host", "formParameters",
    ]
    static let wireMockUnsupportedRequestKeys = [
        "multipartPatterns": "multipart matching is not supported",
        "customMatcher": "custom matchers (Java extensions) are not supported",
        "port": "port matching is not supported",
        "scheme": "scheme matching is not supported",
        "urlPathTemplate": "URL path templates are not supported",
        "pathParameters": "path parameters are not supported",
    ]
    static let wireMockValueMatcherKeys = [
        "equalTo", "caseInsensitive", "contains", "doesNotContain", "matches", "doesNotMatch",
        "absent", "and", "or", "not",
    ]
    static let wireMockBodyMatcherKeys =
        wireMockValueMatcherKeys + [
            "equalToJson", "ignoreArrayOrder", "ignoreExtraElements",
            "matchesJsonPath", "binaryEqualTo", "equalToXml", "matchesXPath",
        ] + wireMockXMLModifiers
    /// The keys beside `equalToXml` and `matchesXPath` that modify them.
    static let wireMockXMLModifiers = [
        "enablePlaceholders", "placeholderOpeningDelimiterRegex", "placeholderClosingDelimiterRegex",
        "exemptedComparisons", "xPathNamespaces",
    ]
    static let wireMockUnsupportedMatcherKeys = [
        "before": "date-time matchers are not supported", "after": "date-time matchers are not supported",
        "equalToDateTime": "date-time matchers are not supported",
        "hasExactly": "multi-value matchers are not supported",
        "includes": "multi-value matchers are not supported",
        "matchesJsonSchema": "JSON Schema matching is not supported",
        "anything": "`anything` is not supported; leave the condition out instead",
    ]

    mutating func decodeWireMockRequest(_ node: JSONNode, _ path: JSONPath) -> RequestPattern? {
        guard let all = node.members else {
            typeMismatch(node, path, expected: "a WireMock request object")
            return nil
        }
        let errorsBefore = errors.count
        refuseUnsupported(all, path, Self.wireMockUnsupportedRequestKeys)
        let keys = members(of: node, path, known: Self.wireMockRequestKeys + Self.wireMockUnsupportedRequestKeys.keys)
        var pattern = RequestPattern()
        if let member = keys["method"],
            let method = nonEmptyString(member.value, path.member("method"), what: "an HTTP method")
        {
            if method != "ANY" { pattern.method = method }
        }
        let urls = all.filter { ["url", "urlPath", "urlPattern", "urlPathPattern"].contains($0.key) }
        if urls.count > 1 {
            fail(
                urls[1].keyPosition, path.member(urls[1].key),
                "give one of `url`, `urlPath`, `urlPattern`, `urlPathPattern`")
        } else if let url = urls.first {
            let urlPath = path.member(url.key)
            switch url.key {
            case "url": pattern.path = string(url.value, urlPath).map(PathMatcher.exactTarget)
            case "urlPath":
                // WireMock compares `urlPath` with the path as sent, before percent-decoding: a
                // path with an escape is compared as sent (query aside), the rest decoded as usual.
                pattern.path = string(url.value, urlPath).map { text in
                    guard text.contains("%"), let sent = try? CompiledRegex(Self.regexLiteral(text) + "(\\?.*)?") else {
                        return .exact(PercentDecoding.decodePath(text))
                    }
                    return .targetPattern(sent)
                }
            case "urlPattern": pattern.path = regex(url.value, urlPath).map(PathMatcher.targetPattern)
            default: pattern.path = regex(url.value, urlPath).map(PathMatcher.pattern)
            }
        }
        if let member = keys["queryParameters"] {
            pattern.query = wireMockNamedMatchers(
                member.value, path.member("queryParameters"), what: "query parameter", negativeAcceptsAbsent: true)
        }
        if let member = keys["headers"] {
            // Jetty hands WireMock its own spelling of well-known values (`APPLICATION/JSON` is
            // `application/json`), and the mapping's matcher sees that.
            pattern.headers = wireMockNamedMatchers(
                member.value, path.member("headers"), what: "header", negativeAcceptsAbsent: true
            ).map { NamedMatcher(name: $0.name, matcher: $0.matcher, valueForm: .jetty(for: $0.name)) }
        }
        if let member = keys["host"], let host = wireMockHostMatcher(member.value, path.member("host")) {
            pattern.headers.append(NamedMatcher(name: "Host", matcher: host))
        }
        if let member = keys["cookies"] {
            pattern.cookies = wireMockNamedMatchers(member.value, path.member("cookies"), what: "cookie")
        }
        // `basicAuth` is what WireMock's Java DSL writes; its JSON reader takes it as `basicAuthCredentials`.
        if let member = keys["basicAuthCredentials"] ?? keys["basicAuth"] {
            let credentialsPath = path.member(member.key)
            let inner = members(of: member.value, credentialsPath, known: ["username", "password"])
            if member.value.members == nil {
                typeMismatch(
                    member.value, credentialsPath, expected: "an object {\"username\": ..., \"password\": ...}")
            } else if let user = inner["username"].flatMap({ string($0.value, credentialsPath.member("username")) }),
                let password = inner["password"].flatMap({ string($0.value, credentialsPath.member("password")) })
            {
                // WireMock compares the whole header with the encoded credentials, ignoring case.
                let encoded = Data((user + ":" + password).utf8).base64EncodedString()
                let matcher = ValueMatcher.equalsIgnoringCase("Basic " + encoded)
                pattern.headers.append(NamedMatcher(name: "Authorization", matcher: matcher))
            } else if inner["username"] == nil || inner["password"] == nil {
                fail(member.value.position, credentialsPath, "`basicAuthCredentials` needs `username` and `password`")
            }
        }
        if let member = keys["bodyPatterns"] {
            let patternsPath = path.member("bodyPatterns")
            if let elements = member.value.elements {
                let matchers = elements.enumerated().compactMap { wireMockBodyMatcher($1, patternsPath.element($0)) }
                if matchers.count == 1 {
                    pattern.body = matchers[0]
                } else if !matchers.isEmpty {
                    pattern.body = .allOf(matchers)
                }
            } else {
                typeMismatch(member.value, patternsPath, expected: "an array of body patterns")
            }
        }
        // WireMock 3's `formParameters`: matched as the native `form` body matcher, beside any
        // `bodyPatterns`.
        if let member = keys["formParameters"] {
            let fields = wireMockNamedMatchers(
                member.value, path.member("formParameters"), what: "form parameter", negativeAcceptsAbsent: true)
            switch pattern.body {
            case nil: pattern.body = .form(fields)
            case .allOf(let all)?: pattern.body = .allOf(all + [.form(fields)])
            case let other?: pattern.body = .allOf([other, .form(fields)])
            }
        }
        return errors.count == errorsBefore ? pattern : nil
    }

    mutating func refuseUnsupported(_ members: [JSONNode.Member], _ path: JSONPath, _ table: [String: String]) {
        for member in members {
            if let reason = table[member.key] {
                fail(
                    member.keyPosition, path.member(member.key),
                    "unsupported WireMock feature `\(member.key)`: \(reason)")
            }
        }
    }

    /// Headers, query parameters or cookies. WireMock 2.35's `doesNotMatch` and `doesNotContain`
    /// accept a missing header or query parameter (as the model's negative matchers do) but not a
    /// missing cookie: without `negativeAcceptsAbsent` they are written to need the name.
    private mutating func wireMockNamedMatchers(
        _ node: JSONNode, _ path: JSONPath, what: String, negativeAcceptsAbsent: Bool = false
    ) -> [NamedMatcher] {
        guard let members = node.members else {
            typeMismatch(node, path, expected: "an object of \(what) name → matcher")
            return []
        }
        return members.compactMap { member in
            wireMockValueMatcher(member.value, path.member(member.key)).map { matcher in
                switch matcher {
                case .doesNotMatch, .doesNotContain:
                    // A missing cookie: WireMock 2.35 wants it there.
                    return NamedMatcher(
                        name: member.key, matcher: negativeAcceptsAbsent ? matcher : .allOf([.present, matcher]))
                default:
                    return NamedMatcher(name: member.key, matcher: matcher)
                }
            }
        }
    }

    /// WireMock's `host`: a string matcher on the host the request names (its `Host` header without
    /// the port), as a matcher on the `Host` header: the host part's condition, then an optional port.
    private mutating func wireMockHostMatcher(_ node: JSONNode, _ path: JSONPath) -> ValueMatcher? {
        guard let matcher = wireMockValueMatcher(node, path) else { return nil }
        let port = "(:[0-9]+)?"
        func compiled(_ hostPattern: String) -> CompiledRegex? {
            do {
                return try CompiledRegex("(?:" + hostPattern + ")" + port)
            } catch {
                fail(node.position, path, "cannot match the host with `\(hostPattern)`: \(error.reason)")
                return nil
            }
        }
        switch matcher {
        case .equals(let host): return compiled(Self.regexLiteral(host)).map(ValueMatcher.matches)
        case .equalsIgnoringCase(let host): return compiled("(?i)" + Self.regexLiteral(host)).map(ValueMatcher.matches)
        case .contains(let part): return compiled("[^:]*" + Self.regexLiteral(part) + "[^:]*").map(ValueMatcher.matches)
        case .doesNotContain(let part):
            return compiled("[^:]*" + Self.regexLiteral(part) + "[^:]*").map(ValueMatcher.doesNotMatch)
        case .matches(let regex): return compiled(regex.pattern).map(ValueMatcher.matches)
        case .doesNotMatch(let regex): return compiled(regex.pattern).map(ValueMatcher.doesNotMatch)
        default:
            fail(
                node.position, path,
                "`host` takes `equalTo` (with `caseInsensitive`), `contains`, `doesNotContain`, `matches` or `doesNotMatch`"
            )
            return nil
        }
    }

    /// `text` as a regular expression that matches exactly it.
    static func regexLiteral(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A WireMock `matches`/`doesNotMatch` pattern: Java's `Pattern.compile(regex, DOTALL)` as WireMock
    /// compiles it, so `.` also matches a line break in a body spanning lines (and `^`/`$` do not
    /// match at each line).
    private mutating func wireMockRegex(_ node: JSONNode, _ path: JSONPath) -> CompiledRegex? {
        guard let plain = regex(node, path) else { return nil }
        return (try? CompiledRegex("(?s)" + plain.pattern)) ?? plain
    }

    /// A WireMock string-value matcher: `{"equalTo": "x", "caseInsensitive": true}`, `{"matches": "re"}`, ...
    mutating func wireMockValueMatcher(_ node: JSONNode, _ path: JSONPath) -> ValueMatcher? {
        guard let all = node.members else {
            typeMismatch(node, path, expected: "a WireMock matcher object such as {\"equalTo\": \"...\"}")
            return nil
        }
        refuseUnsupported(all, path, Self.wireMockUnsupportedMatcherKeys)
        if all.contains(where: { Self.wireMockUnsupportedMatcherKeys[$0.key] != nil }) { return nil }
        let keys = members(of: node, path, known: Self.wireMockValueMatcherKeys)
        let operators = all.filter { $0.key != "caseInsensitive" }
        guard operators.count == 1, let op = keys[operators[0].key] else {
            if operators.count != 1 {
                fail(
                    node.position, path,
                    "a WireMock matcher has exactly one operator (`equalTo`, `contains`, `matches`, ...); found \(operators.count)"
                )
            }
            return nil
        }
        let opPath = path.member(op.key)
        if let flag = keys["caseInsensitive"], op.key != "equalTo" {
            fail(flag.keyPosition, path.member("caseInsensitive"), "`caseInsensitive` goes with `equalTo` only")
            return nil
        }
        switch op.key {
        case "equalTo":
            guard let text = string(op.value, opPath) else { return nil }
            let ignoreCase =
                keys["caseInsensitive"].flatMap { boolean($0.value, path.member("caseInsensitive")) } ?? false
            return ignoreCase ? .equalsIgnoringCase(text) : .equals(text)
        case "contains": return string(op.value, opPath).map(ValueMatcher.contains)
        case "doesNotContain": return string(op.value, opPath).map(ValueMatcher.doesNotContain)
        case "matches": return wireMockRegex(op.value, opPath).map(ValueMatcher.matches)
        case "doesNotMatch": return wireMockRegex(op.value, opPath).map(ValueMatcher.doesNotMatch)
        case "absent":
            // WireMock 2.35 reads any `absent` key as "absent", whatever its value; so does Understudy
            // for WireMock mappings, so they answer as they did (docs/wiremock.md).
            guard boolean(op.value, opPath) != nil else { return nil }
            return .absent
        case "not":
            return wireMockValueMatcher(op.value, opPath).map(ValueMatcher.not)
        default:
            guard let elements = op.value.elements, !elements.isEmpty else {
                typeMismatch(op.value, opPath, expected: "a non-empty array of matchers")
                return nil
            }
            let before = errors.count
            // `absent` may be one of them (WireMock 3; the 2.35 jar refuses it): `or` then also
            // accepts a missing name.
            let inner = elements.enumerated().compactMap { wireMockValueMatcher($1, opPath.element($0)) }
            guard errors.count == before else { return nil }
            return op.key == "and" ? .allOf(inner) : .anyOf(inner)
        }
    }

    /// One of `bodyPatterns`.
    mutating func wireMockBodyMatcher(_ node: JSONNode, _ path: JSONPath) -> BodyMatcher? {
        guard let all = node.members else {
            typeMismatch(node, path, expected: "a WireMock body pattern such as {\"equalToJson\": ...}")
            return nil
        }
        refuseUnsupported(all, path, Self.wireMockUnsupportedMatcherKeys)
        if all.contains(where: { Self.wireMockUnsupportedMatcherKeys[$0.key] != nil }) { return nil }
        let modifiers = Set(["caseInsensitive", "ignoreArrayOrder", "ignoreExtraElements"] + Self.wireMockXMLModifiers)
        let keys = members(of: node, path, known: Self.wireMockBodyMatcherKeys)
        let operators = all.filter { !modifiers.contains($0.key) }
        if operators.count > 1, operators.allSatisfy({ Self.wireMockBodyMatcherKeys.contains($0.key) }) {
            // WireMock 2.35 reads the first operator of a body pattern and ignores the others
            // (`{"matchesJsonPath": "$.a", "contains": "x"}` is `matchesJsonPath` alone); so does this.
            let first = JSONNode(
                kind: .object(all.filter { modifiers.contains($0.key) || $0.key == operators[0].key }),
                position: node.position)
            return wireMockBodyMatcher(first, path)
        }
        guard operators.count == 1, let op = keys[operators[0].key] else {
            if operators.count != 1 {
                fail(
                    node.position, path,
                    "a body pattern has exactly one operator (`equalTo`, `equalToJson`, `matchesJsonPath`, ...); found \(operators.count)"
                )
            }
            return nil
        }
        let opPath = path.member(op.key)
        for flag in ["ignoreArrayOrder", "ignoreExtraElements"] where keys[flag] != nil && op.key != "equalToJson" {
            fail(keys[flag]!.keyPosition, path.member(flag), "`\(flag)` goes with `equalToJson` only")
            return nil
        }
        switch op.key {
        case "equalToXml": return wireMockXMLEquals(op.value, keys, path)
        case "matchesXPath": return wireMockXPath(op.value, keys, path)
        case "equalToJson":
            var expected = op.value.value
            if let text = op.value.stringValue {
                guard let parsed = JSONValue.parse(Array(text.utf8)) else {
                    fail(op.value.position, opPath, "`equalToJson` holds a string that is not JSON")
                    return nil
                }
                expected = parsed
            }
            let order = keys["ignoreArrayOrder"].flatMap { boolean($0.value, path.member("ignoreArrayOrder")) } ?? false
            let extra =
                keys["ignoreExtraElements"].flatMap { boolean($0.value, path.member("ignoreExtraElements")) } ?? false
            // WireMock compares with JsonUnit, whose placeholders (`${json-unit.any-string}`, …) are on.
            if let unsupported = JSONUnitPlaceholder.firstUnsupported(in: expected) {
                fail(op.value.position, opPath, "unsupported JsonUnit placeholder `\(unsupported)` in `equalToJson`")
                return nil
            }
            let placeholders = JSONUnitPlaceholder.occurs(in: expected)
            return .jsonEquals(
                expected,
                JSONComparison(ignoreArrayOrder: order, ignoreExtraElements: extra, placeholders: placeholders))
        case "matchesJsonPath":
            if op.value.stringValue != nil { return jsonPathExpression(op.value, opPath).map { .jsonPath($0, nil) } }
            guard let inner = op.value.members, let expressionMember = inner.first(where: { $0.key == "expression" })
            else {
                typeMismatch(op.value, opPath, expected: "a JSON path or {\"expression\": \"$...\", \"equalTo\": ...}")
                return nil
            }
            guard let expression = jsonPathExpression(expressionMember.value, opPath.member("expression")) else {
                return nil
            }
            let others = inner.filter { $0.key != "expression" }
            if others.first?.key == "equalToJson" {
                // `{"expression": …, "equalToJson": …}`: what the path selects, compared as JSON.
                guard
                    case .jsonEquals(let wanted, let options)? = wireMockBodyMatcher(
                        JSONNode(kind: .object(others), position: op.value.position), opPath)
                else { return nil }
                return .jsonPathEquals(expression, wanted, options)
            }
            let rest = JSONNode(kind: .object(others), position: op.value.position)
            guard rest.members?.isEmpty == false else { return .jsonPath(expression, nil) }
            // A selected number reaches WireMock's string matcher as Java writes it (`20.10` is `20.1`).
            var javaNumbers = expression
            javaNumbers.numberText = .java
            return wireMockValueMatcher(rest, opPath).map { .jsonPath(javaNumbers, $0) }
        case "binaryEqualTo":
            guard let text = string(op.value, opPath) else { return nil }
            guard let data = Data(base64Encoded: text) else {
                fail(op.value.position, opPath, "`binaryEqualTo` is not valid base64")
                return nil
            }
            return .binaryEquals(Array(data))
        case "not":
            return wireMockBodyMatcher(op.value, opPath).map(BodyMatcher.not)
        case "and", "or":
            guard let elements = op.value.elements, !elements.isEmpty else {
                typeMismatch(op.value, opPath, expected: "a non-empty array of body patterns")
                return nil
            }
            let before = errors.count
            let inner = elements.enumerated().compactMap { wireMockBodyMatcher($1, opPath.element($0)) }
            guard errors.count == before else { return nil }
            return op.key == "and" ? .allOf(inner) : .anyOf(inner)
        default:
            // The string matchers apply to the body text.
            guard let matcher = wireMockValueMatcher(node, path) else { return nil }
            switch matcher {
            case .equals(let s): return .equals(s)
            case .equalsIgnoringCase(let s): return .equalsIgnoringCase(s)
            case .contains(let s): return .contains(s)
            case .doesNotContain(let s): return .doesNotContain(s)
            case .matches(let r): return .matches(r)
            case .doesNotMatch(let r): return .doesNotMatch(r)
            default:
                fail(op.keyPosition, opPath, "`\(op.key)` is not supported in `bodyPatterns`")
                return nil
            }
        }
    }
}
