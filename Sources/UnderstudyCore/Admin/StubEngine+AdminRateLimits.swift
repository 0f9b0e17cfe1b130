/// `GET /__admin/rate-limits`: each rate-limited stub's window right now (for the UI's panel).
extension StubEngine {
    func listRateLimits() -> HTTPResponse {
        let now = configuration.clock.monotonicNanoseconds
        var items: [JSONValue] = []
        for (index, stub) in stubs.enumerated() {
            guard let rule = stub.rateLimit else { continue }
            let state = runtimes[index].rateLimit.peek(rule, now: now)
            items.append(.object([
                JSONMember("stub", .string(stub.id)),
                JSONMember("limit", .int(rule.limit)),
                JSONMember("window", .number(Self.formatSeconds(rule.window))),
                JSONMember("algorithm", .string(rule.algorithm.rawValue)),
                JSONMember("retryAfter", .string(rule.retryAfter.rawValue)),
                JSONMember("headers", .string(rule.headers.rawValue)),
                JSONMember("status", .int(rule.status)),
                JSONMember("remaining", .int(state.remaining)),
                JSONMember("resetSeconds", .number(TimeFormatting.fractionalSeconds(state.reset))),
            ]))
        }
        return AdminResponse.value(.object([JSONMember("rateLimits", .array(items))]))
    }
}
