/// Where one stub is in its response sequence, and its rate-limit state.
struct StubRuntime {
    /// Index of the response to serve next.
    private(set) var position = 0
    /// How many times the response at `position` has been served.
    private(set) var servedAtPosition = 0
    /// How many responses the stub has served in all.
    private(set) var timesServed = 0
    /// Set once an `exhaust` stub has served its last response: it no longer matches.
    private(set) var exhausted = false
    var rateLimit = RateLimitState()
    /// The stub's idempotency keys, once it has seen one (`nil` for a stub without `idempotency`).
    var idempotency: IdempotencyStore?
    /// The waits the stub's last answers to each client asked for, once one asked (`nil` until then).
    var retryWatch: RetryWatch?

    /// Takes the next response index and moves the sequence on according to `times` and `afterLast`.
    mutating func takeResponse(of stub: Stub) -> Int {
        takeResponse(of: stub.responses, afterLast: stub.afterLast)
    }

    /// The same, given only what it reads, so the caller need not copy the whole stub.
    mutating func takeResponse(of responses: [StubResponse], afterLast: AfterLast) -> Int {
        let served = position
        timesServed += 1
        servedAtPosition += 1
        guard servedAtPosition >= responses[served].times else { return served }
        if served + 1 < responses.count {
            position = served + 1
            servedAtPosition = 0
            return served
        }
        switch afterLast {
        case .repeat:
            // Stay on the last response; `servedAtPosition` keeps counting harmlessly.
            break
        case .cycle:
            position = 0
            servedAtPosition = 0
        case .exhaust:
            exhausted = true
        }
        return served
    }
}
