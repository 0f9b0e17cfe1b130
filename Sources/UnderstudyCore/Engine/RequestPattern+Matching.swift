/// Matching a request against a pattern, with the reasons it missed for near-miss reports.
extension RequestPattern {
    /// Whether every condition holds.
    func matches(_ context: MatchContext) -> Bool {
        misses(context, stopAtFirst: true).isEmpty
    }

    /// Why the request misses, one phrase per failed condition ("path /postz ≠ /posts"); empty
    /// when it matches. `stopAtFirst` is the fast path used while serving.
    func misses(_ context: MatchContext, stopAtFirst: Bool) -> [MissReason] {
        var reasons: [MissReason] = []
        if let method, method != context.method {
            reasons.append(MissReason(score: 100, text: "method \(context.method) ≠ \(method)"))
            if stopAtFirst { return reasons }
        }
        switch path {
        case .exact(let wanted)?:
            if wanted != context.path {
                // A path one typo away is a much closer miss than an unrelated one.
                let distance = min(10, EditDistance.boundedDistance(context.path, wanted))
                reasons.append(MissReason(score: 100 + 20 * distance, text: "path \(context.path) ≠ \(wanted)"))
                if stopAtFirst { return reasons }
            }
        case .pattern(let regex)?:
            if !regex.matchesWhole(context.path) {
                reasons.append(MissReason(score: 200, text: "path \(context.path) does not match pattern \(regex.pattern)"))
                if stopAtFirst { return reasons }
            }
        case nil:
            break
        }
        for condition in query {
            let values = context.queryValues(condition.name)
            if !condition.matcher.accepts(values) {
                reasons.append(MissReason(score: 100, text: Self.explain("query", condition, values, separator: "=")))
                if stopAtFirst { return reasons }
            }
        }
        for condition in headers {
            let values = context.request.headers.values(for: condition.name)
            if !condition.matcher.accepts(values) {
                reasons.append(MissReason(score: 100, text: Self.explain("header", condition, values, separator: ": ")))
                if stopAtFirst { return reasons }
            }
        }
        if let body, let reason = Self.explain(body, context) {
            reasons.append(MissReason(score: 100, text: reason))
        }
        return reasons
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

    /// `nil` when the body matches.
    private static func explain(_ matcher: BodyMatcher, _ context: MatchContext) -> String? {
        switch matcher {
        case .equals(let wanted):
            return context.bodyText == wanted ? nil : "body \(quote(snippet(context.bodyText))) ≠ \(quote(snippet(wanted)))"
        case .contains(let part):
            return context.bodyText.containsBytes(part) ? nil : "body does not contain \(quote(part))"
        case .matches(let regex):
            return regex.matchesWhole(context.bodyText) ? nil : "body does not match \(regex.pattern)"
        case .json(let wanted):
            guard let actual = context.bodyJSON else { return "body is not JSON" }
            return actual.semanticallyEquals(wanted) ? nil : "body JSON \(snippet(String(decoding: actual.jsonBytes, as: UTF8.self))) ≠ \(snippet(String(decoding: wanted.jsonBytes, as: UTF8.self)))"
        case .jsonSubset(let wanted):
            guard let actual = context.bodyJSON else { return "body is not JSON" }
            return actual.contains(subset: wanted) ? nil : "body JSON does not contain \(snippet(String(decoding: wanted.jsonBytes, as: UTF8.self)))"
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

/// One reason a stub missed a request. `score` ranks near misses (lower is closer): each failed
/// condition costs 100, a wrong path more the further it is from the stub's path.
struct MissReason {
    var score: Int
    var text: String
}

extension EditDistance {
    /// Distance capped at 99, and skipped (99) for long strings, so near-miss ranking stays cheap.
    static func boundedDistance(_ a: String, _ b: String) -> Int {
        guard a.utf8.count <= 200, b.utf8.count <= 200 else { return 99 }
        return min(99, distance(a, b))
    }
}
