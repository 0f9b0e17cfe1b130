/// A condition on the request body.
/// Only `not` is `indirect`: the other recursive cases hold arrays, which are boxed already, so the
/// common cases stay inline (no allocation per matcher, and no boxed payload behind a tagged pointer,
/// which LeakSanitizer cannot follow and reported as a leak).
public enum BodyMatcher: Sendable {
    /// The body, as UTF-8 text, equals the string.
    case equals(String)
    /// The body text equals the string, ignoring case.
    case equalsIgnoringCase(String)
    /// The body text contains the string.
    case contains(String)
    /// The body text does not contain the string.
    case doesNotContain(String)
    /// The whole body text matches the regular expression.
    case matches(CompiledRegex)
    /// The whole body text does not match the regular expression.
    case doesNotMatch(CompiledRegex)
    /// The body is JSON equal to the value (key order ignored, numbers by value).
    case json(JSONValue)
    /// The body is JSON containing at least the keys and elements given.
    case jsonSubset(JSONValue)
    /// The body is JSON equal to the value under the options (WireMock's `equalToJson`).
    case jsonEquals(JSONValue, JSONComparison)
    /// The JSON path selects something in the body; with a matcher, its text satisfies it.
    case jsonPath(JSONPathExpression, ValueMatcher?)
    /// What the JSON path selects (a definite path's value; an indefinite one's selection as an
    /// array) is JSON equal to the value under the options (WireMock's `matchesJsonPath` with
    /// `equalToJson`).
    case jsonPathEquals(JSONPathExpression, JSONValue, JSONComparison)
    /// The body is XML equal to the expected document (XMLUnit's rules, as WireMock's
    /// `equalToXml`): see ``XMLMatching``.
    case xmlEquals(XMLExpectation)
    /// The XPath selects a node in the body; with a matcher, the text of one selected node
    /// satisfies it (WireMock's `matchesXPath`).
    case xPath(XPathQuery, ValueMatcher?)
    /// The body bytes are exactly these.
    case binaryEquals([UInt8])
    /// Every matcher holds.
    case allOf([BodyMatcher])
    /// At least one matcher holds.
    case anyOf([BodyMatcher])
    /// The matcher does not hold.
    indirect case not(BodyMatcher)
    /// The body, read as an `application/x-www-form-urlencoded` form (or a `multipart/form-data`
    /// one, its parts by name), has fields satisfying these
    /// matchers (names as written after percent-decoding, `metadata[order]` included; a repeated
    /// field satisfies a matcher when its values do, as query parameters do).
    case form([NamedMatcher])
}
