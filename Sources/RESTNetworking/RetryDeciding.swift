/// A pure retry policy: from a failed attempt to a decision, with no clock and no randomness of
/// its own. The Combine operators and the async API both drive the same policies, so they retry
/// identically.
public protocol RetryDeciding: Sendable {
    /// Whether to retry after the failure `context` describes, and after how long.
    func decision(for context: RetryContext) -> RetryDecision
    /// How the operator driving this policy keys the attempts of a `POST` or `PATCH`; by default
    /// one key per logical call (`IdempotencyKeys.generated`).
    var idempotencyKeys: IdempotencyKeys { get }
}

extension RetryDeciding {
    public var idempotencyKeys: IdempotencyKeys { .generated }
}
