/// The steps of one logical call's retry loop that the async operator (`RESTCall.retrying`) and
/// the Combine one (`Publisher.retrying`) share, so the two decide identically: how an attempt's
/// answer is checked, and what the policy is asked after a failure.
struct RetryRound: Sendable {
    let policy: any RetryDeciding
    let scheduler: any RetryScheduler
    let method: HTTPMethod?
    /// The call's idempotency key, shared by all its attempts.
    let scope: IdempotencyScope
    /// When the first attempt started, on `scheduler`.
    let start: TimeInterval

    init(
        policy: any RetryDeciding, scheduler: any RetryScheduler, method: HTTPMethod?, joining outer: IdempotencyScope?
    ) {
        self.policy = policy
        self.scheduler = scheduler
        self.method = method
        self.scope = IdempotencyScope.joining(outer, keys: policy.idempotencyKeys)
        self.start = scheduler.now
    }

    /// An attempt's answer, or the error it means: a key mismatch first, then any 4xx/5xx.
    func check(_ output: HTTPResponseOutput) throws -> HTTPResponseOutput {
        try IdempotencyKeyMismatch.check(output, key: scope.key)
        return try HTTPResponseValidation.validate(output)
    }

    /// What the policy decides after `retriesSoFar` retries ended in `error`.
    func decision(after error: any Error, retriesSoFar: Int) -> RetryDecision {
        policy.decision(
            for: RetryContext(
                retriesSoFar: retriesSoFar, error: error, elapsed: scheduler.now - start, method: method,
                randomUnit: Double.random(in: 0..<1), idempotencyKey: scope.key))
    }
}
