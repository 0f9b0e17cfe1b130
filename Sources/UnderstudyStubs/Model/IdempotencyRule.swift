/// A stub's `idempotency`: it honours idempotency keys as the IETF draft "The Idempotency-Key
/// HTTP Header Field" (draft-ietf-httpapi-idempotency-key-header-07) describes them. The engine
/// keeps, per world and stub, each key's first request and answer (UnderstudyCore's `IdempotencyStore`).
public struct IdempotencyRule: Sendable, Equatable {
    /// The statuses a key reused with another body may get: 422 (the draft's), 409 or 400.
    public static let mismatchStatuses = [422, 409, 400]
    /// A day, the draft's example and Stripe's minimum, in seconds.
    public static let defaultTTL = 86_400.0

    /// The header carrying the key (any case).
    public var header: String
    /// A request without the key gets 400 instead of the stub's answer.
    public var required: Bool
    /// Seconds a key lives after its first request, on the world's clock.
    public var ttl: Double
    /// The status a key reused with another body gets.
    public var mismatchStatus: Int

    /// A rule reading `header`; unless told otherwise the key is optional, lives a day, and a
    /// mismatch gets 422.
    public init(
        header: String = "Idempotency-Key", required: Bool = false, ttl: Double = IdempotencyRule.defaultTTL,
        mismatchStatus: Int = 422
    ) {
        self.header = header
        self.required = required
        self.ttl = ttl
        self.mismatchStatus = mismatchStatus
    }

    /// `ttl` in the world clock's monotonic nanoseconds.
    package var ttlNanoseconds: UInt64 { UInt64((ttl * 1_000_000_000).rounded()) }
}
