/// A rate limit's refusal and naming: `status`, `body`/`json`, `name`.
extension StubDecoder {
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
