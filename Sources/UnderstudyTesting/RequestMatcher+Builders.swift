extension RequestMatcher {
    /// `GET path`.
    public static func get(_ path: String) -> RequestMatcher { RequestMatcher(method: "GET", path: path) }
    /// `POST path`.
    public static func post(_ path: String) -> RequestMatcher { RequestMatcher(method: "POST", path: path) }
    /// `PUT path`.
    public static func put(_ path: String) -> RequestMatcher { RequestMatcher(method: "PUT", path: path) }
    /// `PATCH path`.
    public static func patch(_ path: String) -> RequestMatcher { RequestMatcher(method: "PATCH", path: path) }
    /// `DELETE path`.
    public static func delete(_ path: String) -> RequestMatcher { RequestMatcher(method: "DELETE", path: path) }
    /// Any method, exact `path` (every request when `nil`).
    public static func any(_ path: String? = nil) -> RequestMatcher { RequestMatcher(path: path) }
    /// `method` (any, when `nil`) on paths the regular expression matches whole.
    public static func request(_ method: String? = nil, pathPattern: String) -> RequestMatcher {
        RequestMatcher(method: method, pathPattern: pathPattern)
    }

    /// Also requires header `name` to match `matcher`.
    public func header(_ name: String, _ matcher: ValueMatcher) -> RequestMatcher {
        var copy = self
        copy.headers = (headers ?? [:]).merging([name: matcher]) { $1 }
        return copy
    }

    /// Also requires query parameter `name` to match `matcher`.
    public func query(_ name: String, _ matcher: ValueMatcher) -> RequestMatcher {
        var copy = self
        copy.query = (query ?? [:]).merging([name: matcher]) { $1 }
        return copy
    }

    /// Also requires the body to match `matcher`.
    public func body(_ matcher: BodyMatcher) -> RequestMatcher {
        var copy = self
        copy.body = matcher.json
        return copy
    }

    /// A short description for failure messages: `GET /weather [Authorization=Bearer t2]`.
    var summary: String {
        var text = (method ?? "ANY") + " " + (path ?? pathPattern.map { "~\($0)" } ?? "*")
        var parts: [String] = []
        for (name, matcher) in (query ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts.append("?\(name) \(matcher.summary)")
        }
        for (name, matcher) in (headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts.append("\(name) \(matcher.summary)")
        }
        if let body { parts.append("body \(body.jsonText)") }
        if !parts.isEmpty { text += " [" + parts.joined(separator: ", ") + "]" }
        return text
    }
}

extension ValueMatcher {
    var summary: String {
        switch self {
        case .equals(let value): "= \(value)"
        case .contains(let value): "contains \(value)"
        case .matches(let value): "~ \(value)"
        case .equalsIgnoringCase(let value): "=~ \(value) (any case)"
        case .doesNotContain(let value): "does not contain \(value)"
        case .doesNotMatch(let value): "!~ \(value)"
        case .present: "present"
        case .absent: "absent"
        case .allOf(let matchers): "all of (" + matchers.map(\.summary).joined(separator: "; ") + ")"
        case .anyOf(let matchers): "any of (" + matchers.map(\.summary).joined(separator: "; ") + ")"
        case .not(let matcher): "not (\(matcher.summary))"
        }
    }
}
