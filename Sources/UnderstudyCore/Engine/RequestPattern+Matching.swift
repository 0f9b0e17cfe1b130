/// Matching a request against a pattern, with the reasons it missed for near-miss reports.
extension RequestPattern {
    /// Whether every condition holds.
    func matches(_ context: MatchContext) -> Bool {
        misses(context, depth: .firstMiss).isEmpty
    }

    /// How much work `misses` does.
    enum MissDepth {
        /// Stop at the first failed condition (serving).
        case firstMiss
        /// Every failed condition with a phrase (the few stubs a near-miss report shows).
        case explain
    }

    /// Why the request misses, one entry per failed condition ("path /postz ≠ /posts"); empty
    /// when it matches.
    func misses(_ context: MatchContext, depth: MissDepth) -> [MissReason] {
        var reasons: [MissReason] = []
        let explaining = depth == .explain
        if let method, method != context.method {
            reasons.append(MissReason(text: explaining ? "method \(context.method) ≠ \(method)" : ""))
            if depth == .firstMiss { return reasons }
        }
        switch path {
        case .exact(let wanted)?:
            if wanted != context.path {
                reasons.append(MissReason(text: explaining ? "path \(context.path) ≠ \(wanted)" : ""))
                if depth == .firstMiss { return reasons }
            }
        case .pattern(let regex)?:
            if !regex.matchesWhole(context.path) {
                reasons.append(
                    MissReason(text: explaining ? "path \(context.path) does not match pattern \(regex.pattern)" : ""))
                if depth == .firstMiss { return reasons }
            }
        case .exactTarget(let wanted)?:
            if wanted != context.target {
                reasons.append(MissReason(text: explaining ? "url \(context.target) ≠ \(wanted)" : ""))
                if depth == .firstMiss { return reasons }
            }
        case .targetPattern(let regex)?:
            if !regex.matchesWhole(context.target) {
                reasons.append(
                    MissReason(text: explaining ? "url \(context.target) does not match pattern \(regex.pattern)" : ""))
                if depth == .firstMiss { return reasons }
            }
        case nil:
            break
        }
        for condition in query {
            let values = context.queryValues(condition.name)
            if !condition.matcher.accepts(values) {
                reasons.append(
                    MissReason(text: explaining ? Self.explain("query", condition, values, separator: "=") : ""))
                if depth == .firstMiss { return reasons }
            }
        }
        for condition in headers {
            let values = condition.valueForm.normalize(context.request.headers.values(for: condition.name))
            if !condition.matcher.accepts(values) {
                reasons.append(
                    MissReason(text: explaining ? Self.explain("header", condition, values, separator: ": ") : ""))
                if depth == .firstMiss { return reasons }
            }
        }
        for condition in cookies {
            let values = context.cookieValues(condition.name)
            if !condition.matcher.accepts(values) {
                reasons.append(
                    MissReason(text: explaining ? Self.explain("cookie", condition, values, separator: "=") : ""))
                if depth == .firstMiss { return reasons }
            }
        }
        if let body, !Self.accepts(body, context) {
            reasons.append(MissReason(text: explaining ? Self.explain(body, context) : ""))
        }
        return reasons
    }

    static func accepts(_ matcher: BodyMatcher, _ context: MatchContext) -> Bool {
        switch matcher {
        case .equals(let wanted): return context.bodyText == wanted
        case .equalsIgnoringCase(let wanted): return context.bodyText.lowercased() == wanted.lowercased()
        case .contains(let part): return context.bodyText.containsBytes(part)
        case .doesNotContain(let part): return !context.bodyText.containsBytes(part)
        case .matches(let regex): return regex.matchesWhole(context.bodyText)
        case .doesNotMatch(let regex): return !regex.matchesWhole(context.bodyText)
        case .json(let wanted): return context.bodyJSON?.semanticallyEquals(wanted) ?? false
        case .jsonSubset(let wanted): return context.bodyJSON?.contains(subset: wanted) ?? false
        case .jsonEquals(let wanted, let options): return context.bodyJSON?.equals(wanted, options) ?? false
        case .jsonPath(let expression, let matcher):
            guard let json = context.bodyJSON else { return false }
            return expression.accepts(json, matcher)
        case .jsonPathEquals(let expression, let wanted, let options):
            guard let json = context.bodyJSON, let selected = expression.selection(json) else { return false }
            return selected.equals(wanted, options)
        case .binaryEquals(let bytes): return context.request.body == bytes
        case .xmlEquals, .xPath: return acceptsXML(matcher, context)
        case .allOf, .anyOf, .not: return acceptsComposite(matcher, context)
        case .form(let fields): return firstMissedField(fields, context) == nil
        }
    }

    /// The first `form` field whose values miss its matcher, with those values; nil when all hold.
    /// Out of line: only stubs with a `form` matcher parse the body as a form.
    @inline(never)
    private static func firstMissedField(_ fields: [NamedMatcher], _ context: MatchContext)
        -> (condition: NamedMatcher, values: [String])?
    {
        let pairs = FormBody.pairs(context)
        for condition in fields {
            let values = pairs.filter { $0.name == condition.name }.map(\.value)
            if !condition.matcher.accepts(values) { return (condition, values) }
        }
        return nil
    }

    /// `xmlEquals` and `xPath`, out of line: the body is parsed by the installed ``XMLMatching``.
    @inline(never)
    private static func acceptsXML(_ matcher: BodyMatcher, _ context: MatchContext) -> Bool {
        switch matcher {
        case .xmlEquals(let expectation): return expectation.condition.mismatch(in: context.request.body) == nil
        case .xPath(let query, let valueMatcher):
            guard let selected = query.selector.selection(in: context.request.body) else { return false }
            guard let valueMatcher else { return !selected.isEmpty }
            return selected.contains { valueMatcher.accepts(value: $0) }
        default: return accepts(matcher, context)
        }
    }

    /// `allOf`, `anyOf` and `not`, out of line and without closures over the context, so the
    /// compiler can still keep the per-request context on the stack.
    @inline(never)
    private static func acceptsComposite(_ matcher: BodyMatcher, _ context: MatchContext) -> Bool {
        switch matcher {
        case .allOf(let all):
            for inner in all where !accepts(inner, context) { return false }
            return true
        case .anyOf(let any):
            for inner in any where accepts(inner, context) { return true }
            return false
        case .not(let inner): return !accepts(inner, context)
        default: return accepts(matcher, context)
        }
    }

    private static func explain(_ kind: String, _ condition: NamedMatcher, _ values: [String], separator: String)
        -> String
    {
        let name = condition.name
        let shown = values.isEmpty ? "" : "\(kind) \(name)\(separator)\(quoteList(values))"
        switch condition.matcher {
        case .present: return "\(kind) \(name) absent"
        case .absent: return "\(kind) \(name) present (\(quoteList(values))), stub wants it absent"
        case .equals(let wanted): return values.isEmpty ? "\(kind) \(name) absent" : "\(shown) ≠ \(quote(wanted))"
        case .contains(let part):
            return values.isEmpty ? "\(kind) \(name) absent" : "\(shown) does not contain \(quote(part))"
        case .matches(let regex):
            return values.isEmpty ? "\(kind) \(name) absent" : "\(shown) does not match \(regex.pattern)"
        default: return values.isEmpty ? "\(kind) \(name) absent" : "\(shown), stub wants \(condition.matcher.phrase)"
        }
    }

    /// Why the body missed; called only once `accepts` said it did.
    private static func explain(_ matcher: BodyMatcher, _ context: MatchContext) -> String {
        switch matcher {
        case .equals(let wanted):
            return "body \(quote(snippet(context.bodyText))) ≠ \(quote(snippet(wanted)))"
        case .contains(let part):
            return "body does not contain \(quote(part))"
        case .matches(let regex):
            return "body does not match \(regex.pattern)"
        case .json(let wanted):
            guard let actual = context.bodyJSON else { return "body is not JSON" }
            return
                "body JSON \(snippet(String(decoding: actual.jsonBytes, as: UTF8.self))) ≠ \(snippet(String(decoding: wanted.jsonBytes, as: UTF8.self)))"
        case .jsonSubset(let wanted):
            guard context.bodyJSON != nil else { return "body is not JSON" }
            return "body JSON does not contain \(snippet(String(decoding: wanted.jsonBytes, as: UTF8.self)))"
        case .jsonEquals(let wanted, _):
            guard context.bodyJSON != nil else { return "body is not JSON" }
            return "body JSON ≠ \(snippet(String(decoding: wanted.jsonBytes, as: UTF8.self)))"
        case .jsonPath(let expression, let matcher):
            guard context.bodyJSON != nil else { return "body is not JSON" }
            return "body JSON path \(expression.text) "
                + (matcher.map { "does not satisfy \($0.phrase)" } ?? "selects nothing")
        case .jsonPathEquals(let expression, let wanted, _):
            guard context.bodyJSON != nil else { return "body is not JSON" }
            return "body JSON path \(expression.text) ≠ \(snippet(String(decoding: wanted.jsonBytes, as: UTF8.self)))"
        case .equalsIgnoringCase(let wanted): return "body ≠ \(quote(snippet(wanted))) (ignoring case)"
        case .doesNotContain(let part): return "body contains \(quote(part))"
        case .doesNotMatch(let regex): return "body matches \(regex.pattern)"
        case .binaryEquals(let bytes):
            return "body (\(context.request.body.count) bytes) ≠ the \(bytes.count) bytes wanted"
        case .xmlEquals(let expectation):
            return expectation.condition.mismatch(in: context.request.body) ?? "body is XML equal to the stub's"
        case .xPath(let query, let matcher):
            guard let selected = query.selector.selection(in: context.request.body) else { return "body is not XML" }
            if selected.isEmpty { return "body XPath \(query.expression) selects nothing" }
            return "body XPath \(query.expression) selects \(quoteList(selected.prefix(3).map(snippet))), "
                + "none satisfies \(matcher?.phrase ?? "the matcher")"
        case .allOf, .anyOf, .not: return "body does not satisfy the stub's body patterns"
        case .form(let fields):
            guard let (condition, values) = firstMissedField(fields, context) else { return "body form matches" }
            return explain("form field", condition, values, separator: "=")
        }
    }

    private static func quote(_ text: String) -> String {
        "\"\(text)\""
    }

    private static func quoteList(_ values: [String]) -> String {
        values.map(quote).joined(separator: ", ")
    }

    private static func snippet(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(57)) + "..."
    }
}

/// One reason a stub missed a request, as the unmatched response explains it
/// ("path /postz ≠ /posts"). How close the miss is comes from
/// ``RequestPattern/distance(from:base:budget:name:)``, not from the reasons.
struct MissReason {
    var text: String
}
