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
                reasons.append(MissReason(text: explaining ? "path \(context.path) does not match pattern \(regex.pattern)" : ""))
                if depth == .firstMiss { return reasons }
            }
        case nil:
            break
        }
        for condition in query {
            let values = context.queryValues(condition.name)
            if !condition.matcher.accepts(values) {
                reasons.append(MissReason(text: explaining ? Self.explain("query", condition, values, separator: "=") : ""))
                if depth == .firstMiss { return reasons }
            }
        }
        for condition in headers {
            let values = context.request.headers.values(for: condition.name)
            if !condition.matcher.accepts(values) {
                reasons.append(MissReason(text: explaining ? Self.explain("header", condition, values, separator: ": ") : ""))
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
        case .contains(let part): return context.bodyText.containsBytes(part)
        case .matches(let regex): return regex.matchesWhole(context.bodyText)
        case .json(let wanted): return context.bodyJSON?.semanticallyEquals(wanted) ?? false
        case .jsonSubset(let wanted): return context.bodyJSON?.contains(subset: wanted) ?? false
        }
    }

    private static func explain(_ kind: String, _ condition: NamedMatcher, _ values: [String], separator: String) -> String {
        let name = condition.name
        let shown = values.isEmpty ? "" : "\(kind) \(name)\(separator)\(quoteList(values))"
        switch condition.matcher {
        case .present: return "\(kind) \(name) absent"
        case .absent: return "\(kind) \(name) present (\(quoteList(values))), stub wants it absent"
        case .equals(let wanted): return values.isEmpty ? "\(kind) \(name) absent" : "\(shown) ≠ \(quote(wanted))"
        case .contains(let part): return values.isEmpty ? "\(kind) \(name) absent" : "\(shown) does not contain \(quote(part))"
        case .matches(let regex): return values.isEmpty ? "\(kind) \(name) absent" : "\(shown) does not match \(regex.pattern)"
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
            return "body JSON \(snippet(String(decoding: actual.jsonBytes, as: UTF8.self))) ≠ \(snippet(String(decoding: wanted.jsonBytes, as: UTF8.self)))"
        case .jsonSubset(let wanted):
            guard context.bodyJSON != nil else { return "body is not JSON" }
            return "body JSON does not contain \(snippet(String(decoding: wanted.jsonBytes, as: UTF8.self)))"
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
