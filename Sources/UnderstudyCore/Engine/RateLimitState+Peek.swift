extension RateLimitState {
    /// The window as it stands at `now`, without admitting anything: requests still allowed and
    /// seconds until the limit is whole again. Works on a copy, so looking changes nothing.
    func peek(_ rule: RateLimitRule, now: UInt64) -> (remaining: Int, reset: Double) {
        var copy = self
        let decision = copy.admit(rule, now: now)
        return decision.allowed ? (decision.remaining + 1, max(0, decision.reset)) : (0, decision.reset)
    }
}
