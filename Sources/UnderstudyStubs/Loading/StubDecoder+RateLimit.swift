/// A stub's `rateLimit`: the rule, and its refusal and naming (`status`, `body`/`json`, `name`).
extension StubDecoder {
    /// A stub's `rateLimit`: `nil` (with its errors reported) when any part of it is wrong.
    mutating func decodeRateLimit(_ node: JSONNode, _ path: JSONPath) -> RateLimitRule? {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "an object like {\"limit\": 10, \"window\": 1}")
            return nil
        }
        let errorsBefore = errors.count
        let keys = members(
            of: node, path, known: Self.rateLimitKeys,
            required: [
                RequiredKey(key: "limit", why: "give the number of requests allowed per window"),
                RequiredKey(key: "window", why: "give the window's length in seconds"),
            ])
        var limit = 1
        if let member = keys["limit"] {
            limit = integer(member.value, path.member("limit"), minimum: 1, what: "a request count") ?? 1
        }
        var window = 1.0
        if let member = keys["window"] {
            let windowPath = path.member("window")
            if let value = number(member.value, windowPath) {
                if value > 0 && value <= Self.maximumSeconds {
                    window = value
                } else {
                    fail(
                        member.value.position, windowPath,
                        "`window` must be a number of seconds greater than 0 and at most \(Int(Self.maximumSeconds)) (ten years)"
                    )
                }
            }
        }
        let format = keys["retryAfter"].flatMap {
            enumValue($0.value, path.member("retryAfter"), RateLimitRule.RetryAfterFormat.self)
        }
        let algorithm = keys["algorithm"].flatMap {
            enumValue($0.value, path.member("algorithm"), RateLimitRule.Algorithm.self)
        }
        let dialect = keys["headers"].flatMap {
            enumValue($0.value, path.member("headers"), RateLimitRule.HeaderDialect.self)
        }
        var rule = RateLimitRule(
            limit: limit, window: window, algorithm: algorithm ?? .slidingWindow, headers: dialect ?? .ietf)
        // GitHub's primary rate limit sends no `Retry-After`: its clients go by `X-RateLimit-Reset`.
        rule.retryAfter = format ?? (rule.headers == .github ? .none : .seconds)
        decodeRefusal(keys, path, into: &rule)
        guard errors.count == errorsBefore else { return nil }
        return rule
    }

    mutating func decodeRefusal(_ keys: ObjectMembers, _ path: JSONPath, into rule: inout RateLimitRule) {
        if let member = keys["status"] {
            let statusPath = path.member("status")
            let allowed = RateLimitRule.refusalStatuses
            let list = allowed.map(String.init).joined(separator: ", ")
            if let status = integer(member.value, statusPath, minimum: 100, what: "a refusal status") {
                if allowed.contains(status) {
                    rule.status = status
                } else if let suggestion = EditDistance.closest(to: String(status), among: allowed.map(String.init)) {
                    fail(
                        member.value.position, statusPath,
                        "a refusal's `status` must be one of \(list); did you mean \(suggestion)?",
                        suggestion: suggestion)
                } else {
                    fail(
                        member.value.position, statusPath,
                        "a refusal's `status` must be one of \(list) (429 Too Many Requests, "
                            + "403 as GitHub answers, 503 as some gateways do)")
                }
            }
        }
        if let member = keys["name"] {
            let namePath = path.member("name")
            if let name = nonEmptyString(member.value, namePath, what: "the limit's name") {
                // It goes into a header value (and the draft's sf-string): printable ASCII only.
                if name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                    rule.name = name
                } else {
                    fail(
                        member.value.position, namePath,
                        "the limit's `name` goes into a header: use printable ASCII only")
                }
            }
        }
        if let body = keys["body"], let json = keys["json"] {
            let second =
                (body.keyPosition.line, body.keyPosition.column) < (json.keyPosition.line, json.keyPosition.column)
                ? json : body
            fail(
                second.keyPosition, path.member(second.key),
                "more than one refusal body (`body` and `json`); give at most one")
        } else if let member = keys["body"] {
            if let text = string(member.value, path.member("body")) { rule.refusalBody = Array(text.utf8) }
        } else if let member = keys["json"] {
            rule.refusalBody = member.value.value.jsonBytes
            rule.refusalContentType = "application/json"
        }
    }
}
