/// The pacing state of one host, as a pure value: what the server said about the budget, how
/// many requests were sent since, and how many are on the wire. `RequestPacer` holds one per
/// host behind its lock and asks it, for each waiting request, whether it may go now.
///
/// The rules, all conservative (a wrong guess must cost a wait, never a 429):
/// - **Unknown budget** (nothing heard yet, or the previous budget was spent and its reset has
///   passed): one request at a time, and only once nothing else is on the wire, so its answer
///   tells the whole truth.
/// - **Known budget**: each request sent spends one. An answer from request *k* saying *r* remain
///   is read as *r* minus the requests sent after *k* (the server may not have counted them
///   yet), and the budget only ever goes down until it is spent; its reset is the latest one heard.
/// - **Spent**: everyone waits for the reset; then the budget is unknown again.
/// - **No rate-limit fields** in the answer to an unknown budget: the host is unlimited, and
///   requests go out at once (until an answer does carry fields).
/// - `Retry-After` on a 429, 503 or 403 spends the budget until it passes.
/// - A budget announced without a reset is taken to reset one second after the answer (rather
///   than probing a server that says "0 left" as fast as it answers).
/// - `maxInFlight` caps requests on the wire, whatever the budget.
struct HostPacing {
    enum Budget: Equatable {
        case unknown
        case unlimited
        /// `available` may go below zero when answers show the server counted more than we did.
        case known(available: Int, resetAt: TimeInterval?)
    }

    /// What a waiting request should do.
    enum Admission: Equatable {
        /// Go now, as request number `ticket`.
        case send(ticket: Int)
        /// Wait until `until` (the reset), or until a request on the wire finishes (`nil`).
        case wait(until: TimeInterval?)
    }

    /// Seconds until a budget announced without a reset is taken to reset.
    static let assumedReset: TimeInterval = 1

    private(set) var budget: Budget = .unknown
    /// Requests sent so far; the last one's ticket.
    private(set) var sent = 0
    private(set) var inFlight = 0

    /// Whether the next waiting request may go at `now`; if so it is counted as sent.
    mutating func admit(now: TimeInterval, maxInFlight: Int?) -> Admission {
        if let maxInFlight, inFlight >= maxInFlight { return .wait(until: nil) }
        switch budget {
        case .unlimited:
            return send()
        case .unknown:
            return inFlight == 0 ? send() : .wait(until: nil)
        case let .known(available, resetAt):
            if available > 0 {
                budget = .known(available: available - 1, resetAt: resetAt)
                return send()
            }
            if let resetAt, now < resetAt { return .wait(until: resetAt) }
            budget = .unknown
            return inFlight == 0 ? send() : .wait(until: nil)
        }
    }

    /// Request `ticket` finished at `now`: with an answer carrying `fields`, or (`nil`) without
    /// any answer (a transport failure, or cancelled).
    mutating func finish(ticket: Int, fields: RateLimitFields?, now: TimeInterval) {
        inFlight -= 1
        guard let fields else { return }
        var remaining = fields.remaining
        var reset = fields.reset
        if let retryAfter = fields.retryAfter {
            remaining = 0
            reset = max(reset ?? 0, retryAfter)
        }
        guard let remaining else {
            if budget == .unknown { budget = .unlimited }
            return
        }
        let estimate = remaining - (sent - ticket)
        let resetAt = now + (reset ?? Self.assumedReset)
        switch budget {
        case .unknown, .unlimited:
            budget = .known(available: estimate, resetAt: resetAt)
        case let .known(available, previousReset):
            budget = .known(available: min(available, estimate), resetAt: Self.later(previousReset, resetAt))
        }
    }

    private mutating func send() -> Admission {
        sent += 1
        inFlight += 1
        return .send(ticket: sent)
    }

    private static func later(_ a: TimeInterval?, _ b: TimeInterval?) -> TimeInterval? {
        switch (a, b) {
        case let (a?, b?): max(a, b)
        default: a ?? b
        }
    }
}
