/// The `RateLimit-*` headers for one decision.
struct RateLimitHeaders {
    var rule: RateLimitRule
    var decision: RateLimitState.Decision

    func add(to headers: inout HTTPHeaders) {
        if !headers.contains("RateLimit-Limit") { headers.append(name: "RateLimit-Limit", value: String(rule.limit)) }
        if !headers.contains("RateLimit-Remaining") { headers.append(name: "RateLimit-Remaining", value: String(decision.remaining)) }
        if !headers.contains("RateLimit-Reset") {
            headers.append(name: "RateLimit-Reset", value: String(max(0, Int((decision.reset - 1e-9).rounded(.up)))))
        }
    }
}
