/// Everything a retry policy may look at when an attempt fails.
public struct RetryContext: Sendable {
    /// How many retries have already been made (0 after the first attempt fails).
    public var retriesSoFar: Int
    /// The error the attempt failed with (already an `HTTPError` for 4xx/5xx responses).
    public var error: any Error
    /// Seconds since the first attempt started, on the operator's scheduler.
    public var elapsed: TimeInterval
    /// The request's method, when the publisher or call knows it.
    public var method: HTTPMethod?
    /// A number in `0..<1` the policy uses for jitter; passed in so decisions are reproducible.
    public var randomUnit: Double
    /// The idempotency key the attempts carried (made by the operator or set by the caller), if any.
    /// A keyed request is safe to send again whatever its method (see `IdempotencyKeys`).
    public var idempotencyKey: String?

    /// The context of one failed attempt.
    public init(
        retriesSoFar: Int, error: any Error, elapsed: TimeInterval, method: HTTPMethod?, randomUnit: Double,
        idempotencyKey: String? = nil
    ) {
        self.retriesSoFar = retriesSoFar
        self.error = error
        self.elapsed = elapsed
        self.method = method
        self.randomUnit = randomUnit
        self.idempotencyKey = idempotencyKey
    }
}
