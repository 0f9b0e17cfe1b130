/// The moving part of one stub's rate limit.
struct RateLimitState {
    /// The verdict for one request.
    struct Decision {
        var allowed: Bool
        /// Requests still allowed right after this one.
        var remaining: Int
        /// Seconds until a refused request could succeed (0 when allowed).
        var retryAfter: Double
        /// Seconds until the limit is fully replenished.
        var reset: Double
    }

    /// Sliding window: monotonic times of the requests admitted in the current window, oldest first.
    private var admitted: [UInt64] = []
    private var oldest = 0
    /// Token bucket: tokens left and when they were last topped up (`nil` = never used: full).
    private var tokens: Double = 0
    private var lastRefill: UInt64?

    /// Decides on a request at monotonic time `now`; refused requests do not use up a slot.
    mutating func admit(_ rule: RateLimitRule, now: UInt64) -> Decision {
        switch rule.algorithm {
        case .slidingWindow: return admitSliding(rule, now: now)
        case .tokenBucket: return admitBucket(rule, now: now)
        }
    }

    private mutating func admitSliding(_ rule: RateLimitRule, now: UInt64) -> Decision {
        let window = UInt64((rule.window * 1_000_000_000).rounded())
        while oldest < admitted.count, admitted[oldest] &+ window <= now { oldest += 1 }
        if oldest > 64 && oldest * 2 > admitted.count {
            admitted.removeFirst(oldest)
            oldest = 0
        }
        let inWindow = admitted.count - oldest
        if inWindow < rule.limit {
            admitted.append(now)
            let first = admitted[oldest]
            return Decision(
                allowed: true, remaining: rule.limit - inWindow - 1, retryAfter: 0,
                reset: Double(first &+ window - now) / 1_000_000_000)
        }
        let frees = Double(admitted[oldest] &+ window - now) / 1_000_000_000
        return Decision(allowed: false, remaining: 0, retryAfter: frees, reset: frees)
    }

    private mutating func admitBucket(_ rule: RateLimitRule, now: UInt64) -> Decision {
        let capacity = Double(rule.limit)
        let perSecond = capacity / rule.window
        if let last = lastRefill {
            tokens = min(capacity, tokens + Double(now &- last) / 1_000_000_000 * perSecond)
        } else {
            tokens = capacity
        }
        lastRefill = now
        if tokens >= 1 {
            tokens -= 1
            return Decision(
                allowed: true, remaining: Int(tokens.rounded(.down)), retryAfter: 0,
                reset: (capacity - tokens) / perSecond)
        }
        return Decision(
            allowed: false, remaining: 0, retryAfter: (1 - tokens) / perSecond,
            reset: (capacity - tokens) / perSecond)
    }
}

extension RateLimitState {
    /// The window as it stands at `now`, without admitting anything: requests still allowed and
    /// seconds until the limit is whole again. Works on a copy, so looking changes nothing.
    func peek(_ rule: RateLimitRule, now: UInt64) -> (remaining: Int, reset: Double) {
        var copy = self
        let decision = copy.admit(rule, now: now)
        return decision.allowed ? (decision.remaining + 1, max(0, decision.reset)) : (0, decision.reset)
    }
}
