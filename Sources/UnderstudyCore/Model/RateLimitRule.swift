/// A rate limit on one stub: at most `limit` requests per `window` seconds; requests over it are
/// answered `429` with a computed `Retry-After`.
public struct RateLimitRule: Sendable, Equatable {
    /// How requests are counted.
    public enum Algorithm: String, Sendable, CaseIterable {
        /// At most `limit` requests in any `window` seconds (the default).
        case slidingWindow = "sliding-window"
        /// A bucket of `limit` tokens refilled evenly over `window` seconds; allows bursts up to `limit`.
        case tokenBucket = "token-bucket"
    }

    /// How `Retry-After` is written.
    public enum RetryAfterFormat: String, Sendable, CaseIterable {
        /// Whole seconds, rounded up (the default).
        case seconds
        /// Seconds with millisecond precision, rounded up (`0.237`).
        case fractional
        /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
        case httpDate = "http-date"
    }

    public var limit: Int
    /// The window in seconds.
    public var window: Double
    public var retryAfter: RetryAfterFormat
    public var algorithm: Algorithm

    public init(limit: Int, window: Double, retryAfter: RetryAfterFormat = .seconds, algorithm: Algorithm = .slidingWindow) {
        self.limit = limit
        self.window = window
        self.retryAfter = retryAfter
        self.algorithm = algorithm
    }
}
