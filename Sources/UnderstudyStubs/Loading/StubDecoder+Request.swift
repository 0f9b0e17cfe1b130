import UnderstudyStubFormat
import UnderstudyHTTP

/// Decoding of a stub's `request` object and its matchers.
extension StubDecoder {
    static let requestKeys = StubFormat.Object.request.keys
    static let valueMatcherKeys = StubFormat.Object.valueMatcher.keys
    static let bodyMatcherKeys = StubFormat.Object.bodyMatcher.keys

    /// Decodes a request object whose path is given as text (the admin API's `{"request": ...}`).
    mutating func decodeRequest(_ node: JSONNode, _ path: String) -> RequestPattern? {
        decodeRequest(node, JSONPath(text: path))
    }

    mutating func decodeRequest(_ node: JSONNode, _ path: JSONPath) -> RequestPattern? {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "a request object")
            return nil
        }
        let errorsBefore = errors.count
        let keys = members(of: node, path, known: Self.requestKeys)
        var pattern = RequestPattern()

        if let member = keys["method"] {
            let methodPath = path.member("method")
            if let method = nonEmptyString(member.value, methodPath, what: "an HTTP method") {
                if method.utf8.allSatisfy(Self.isTokenByte) {
                    pattern.method = method.uppercased()
                } else {
                    fail(member.value.position, methodPath, "`\(method)` is not an HTTP method token")
                }
            }
        }

        let exact = keys["path"], patterned = keys["pathPattern"]
        if let target = decodeTarget(keys, path) {
            pattern.path = target
        } else if let exact, let patterned {
            let later =
                exact.keyPosition.line > patterned.keyPosition.line
                    || (exact.keyPosition.line == patterned.keyPosition.line
                        && exact.keyPosition.column > patterned.keyPosition.column)
                ? exact : patterned
            fail(later.keyPosition, path.member(later.key), "give either `path` or `pathPattern`, not both")
        } else if let exact {
            let pathPath = path.member("path")
            if let text = string(exact.value, pathPath) {
                if text.hasPrefix("/") || text == "*" {
                    pattern.path = .exact(PercentDecoding.decodePath(text))
                } else {
                    fail(exact.value.position, pathPath, "`path` must start with `/`, found `\(text)`")
                }
            }
        } else if let patterned {
            if let regex = regex(patterned.value, path.member("pathPattern")) {
                pattern.path = .pattern(regex)
            }
        }

        if let member = keys["query"] {
            pattern.query = namedMatchers(member.value, path.member("query"), what: "query parameter")
        }
        if let member = keys["headers"] {
            let headersPath = path.member("headers")
            // Media types and connection options are compared ignoring case where HTTP says so.
            pattern.headers = namedMatchers(member.value, headersPath, what: "header").map { condition in
                let form = HeaderValueForm.native(for: condition.name)
                return NamedMatcher(
                    name: condition.name, matcher: form.normalizingLiterals(condition.matcher), valueForm: form)
            }
            if let members = member.value.members {
                for (i, a) in members.enumerated() {
                    if members[..<i].contains(where: { HTTPHeaders.namesMatch($0.key, a.key) && $0.key != a.key }) {
                        fail(
                            a.keyPosition, headersPath.member(a.key),
                            "header `\(a.key)` is given twice (header names ignore case)")
                    }
                }
            }
        }
        if let member = keys["cookies"] {
            pattern.cookies = namedMatchers(member.value, path.member("cookies"), what: "cookie")
        }
        if let member = keys["body"] {
            pattern.body = bodyMatcher(member.value, path.member("body"))
        }
        return errors.count == errorsBefore ? pattern : nil
    }

    mutating func namedMatchers(_ node: JSONNode, _ path: JSONPath, what: String) -> [NamedMatcher] {
        guard let members = node.members else {
            typeMismatch(node, path, expected: "an object of \(what) name → matcher")
            return []
        }
        var result: [NamedMatcher] = []
        var seen: Set<String> = []
        for member in members {
            let memberPath = path.member(member.key)
            guard seen.insert(member.key).inserted else {
                fail(member.keyPosition, memberPath, "\(what) `\(member.key)` is given more than once")
                continue
            }
            if let matcher = valueMatcher(member.value, memberPath) {
                result.append(NamedMatcher(name: member.key, matcher: matcher))
            }
        }
        return result
    }

    /// The single key of a matcher object (value and body matchers alike take exactly one), with
    /// its path; nil after reporting an unknown key or a count other than one.
    private mutating func soleMember(of node: JSONNode, _ path: JSONPath, known: [String], kind: String)
        -> (member: JSONNode.Member, path: JSONPath)?
    {
        guard let members = node.members else { return nil }
        let keys = self.members(of: node, path, known: known)
        guard members.count == 1, let member = members.first, let match = keys[member.key] else {
            if members.count != 1 {
                let list = known.map { "`\($0)`" }.joined(separator: ", ")
                fail(node.position, path, "\(kind) has exactly one of \(list); found \(members.count) keys")
            }
            return nil
        }
        return (match, path.member(match.key))
    }

    /// A plain string (exact) or an object with exactly one matcher key.
    mutating func valueMatcher(_ node: JSONNode, _ path: JSONPath) -> ValueMatcher? {
        if let text = node.stringValue { return .equals(text) }
        guard node.members != nil else {
            typeMismatch(
                node, path,
                expected:
                    "a string or a matcher object ({\"equals\"|\"contains\"|\"matches\"|\"present\"|\"absent\": ...})")
            return nil
        }
        guard let (known, memberPath) = soleMember(of: node, path, known: Self.valueMatcherKeys, kind: "a matcher")
        else { return nil }
        switch known.key {
        case "equals": return string(known.value, memberPath).map(ValueMatcher.equals)
        case "contains": return string(known.value, memberPath).map(ValueMatcher.contains)
        case "matches": return regex(known.value, memberPath).map(ValueMatcher.matches)
        case _ where Self.extraValueMatcherKeys.contains(known.key):
            return extraValueMatcher(known, memberPath)
        case "present", "absent":
            guard case .bool(true) = known.value.kind else {
                fail(known.value.position, memberPath, "`\(known.key)` takes only `true`")
                return nil
            }
            return known.key == "present" ? .present : .absent
        default: return nil
        }
    }

    mutating func bodyMatcher(_ node: JSONNode, _ path: JSONPath) -> BodyMatcher? {
        guard node.members != nil else {
            typeMismatch(
                node, path,
                expected: "a body matcher object ({\"equals\"|\"contains\"|\"matches\"|\"json\"|\"jsonSubset\": ...})")
            return nil
        }
        guard let (known, memberPath) = soleMember(of: node, path, known: Self.bodyMatcherKeys, kind: "a body matcher")
        else { return nil }
        switch known.key {
        case "equals": return string(known.value, memberPath).map(BodyMatcher.equals)
        case "contains": return string(known.value, memberPath).map(BodyMatcher.contains)
        case "matches": return regex(known.value, memberPath).map(BodyMatcher.matches)
        case "json": return .json(known.value.value)
        case "jsonSubset": return .jsonSubset(known.value.value)
        case "form":
            let before = errors.count
            let fields = namedMatchers(known.value, memberPath, what: "form field")
            return errors.count == before ? .form(fields) : nil
        default: return extraBodyMatcher(known, memberPath)
        }
    }

    /// RFC 9110 `tchar`.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
