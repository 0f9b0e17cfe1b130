/// A stub's `idempotency` (``IdempotencyRule``).
extension StubDecoder {
    /// A stub's `idempotency`: `nil` (with its errors reported) when any part of it is wrong.
    package mutating func decodeIdempotency(_ node: JSONNode, _ path: JSONPath) -> IdempotencyRule? {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "an object like {\"header\": \"Idempotency-Key\", \"required\": true}")
            return nil
        }
        let errorsBefore = errors.count
        let keys = members(of: node, path, known: Self.idempotencyKeys)
        var rule = IdempotencyRule()
        if let member = keys["header"],
            let name = nonEmptyString(member.value, path.member("header"), what: "a header name")
        {
            if name.utf8.allSatisfy(Self.isTokenByte) {
                rule.header = name
            } else {
                fail(
                    member.value.position, path.member("header"),
                    "`header` must be a header name (letters, digits and !#$%&'*+-.^_`|~), like \"Idempotency-Key\"")
            }
        }
        if let member = keys["required"], let required = boolean(member.value, path.member("required")) {
            rule.required = required
        }
        if let member = keys["ttl"], let seconds = number(member.value, path.member("ttl")) {
            if seconds > 0 && seconds <= Self.maximumSeconds {
                rule.ttl = seconds
            } else {
                fail(
                    member.value.position, path.member("ttl"),
                    "`ttl` must be a number of seconds greater than 0 and at most \(Int(Self.maximumSeconds)) (ten years), like 86400"
                )
            }
        }
        if let member = keys["mismatchStatus"] {
            let statusPath = path.member("mismatchStatus")
            let allowed = IdempotencyRule.mismatchStatuses
            if let status = integer(member.value, statusPath, minimum: 100, what: "a status") {
                if allowed.contains(status) {
                    rule.mismatchStatus = status
                } else {
                    fail(
                        member.value.position, statusPath,
                        "`mismatchStatus` must be one of \(allowed.map(String.init).joined(separator: ", ")) "
                            + "(422 as the IETF draft says, 409 or 400 as some APIs answer)")
                }
            }
        }
        guard errors.count == errorsBefore else { return nil }
        return rule
    }
}
