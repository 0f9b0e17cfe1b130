/// What a stub does with a request that comes back before the wait its previous answer to the
/// same client asked for (`Retry-After`, or a refusal's `X-RateLimit-Reset`) has passed, on the
/// world's clock. Every such request is journaled with a `retry` verdict either way.
public enum EarlyRetries: String, Sendable, Equatable, CaseIterable {
    /// Serve it as usual; the journal says it was early, and by how much (the default).
    case observe
    /// Answer it with the previous refusal again (its `Retry-After` now the time still to wait),
    /// as Dev Proxy's RetryAfterPlugin does: the stub's sequence does not move.
    case refuse
}
