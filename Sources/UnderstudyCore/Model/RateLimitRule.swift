/// A rate limit on one stub: at most `limit` requests per `window` seconds; requests over it are
/// refused (`429` by default) with the rate-limit headers of the chosen dialect and, unless
/// turned off, a computed `Retry-After`.
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
        /// Whole seconds, rounded up (the default, except for the `github` dialect).
        case seconds
        /// Seconds with millisecond precision, rounded up (`0.237`).
        case fractional
        /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
        case httpDate = "http-date"
        /// No `Retry-After` at all: the client has only the rate-limit headers to go by (GitHub's
        /// primary rate limit answers this way, so it is the `github` dialect's default).
        case none
    }

    /// Which rate-limit headers every answer of the stub carries, as one family of real APIs sends them.
    public enum HeaderDialect: String, Sendable, CaseIterable {
        /// `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (delta-seconds): the
        /// IETF draft's older separate fields (the default, what Understudy always sent).
        case ietf
        /// The IETF draft's structured fields (draft-ietf-httpapi-ratelimit-headers-10):
        /// `RateLimit-Policy: "default";q=10;w=1` and `RateLimit: "default";r=4;t=1`.
        case ietfDraft = "ietf-draft"
        /// GitHub's REST API: `X-RateLimit-Limit`, `-Remaining`, `-Used`, `-Reset` (a Unix epoch
        /// in seconds) and `-Resource`.
        case github
        /// The common `X-RateLimit-Limit`, `-Remaining`, `-Reset` with the reset as seconds from now.
        case xRateLimit = "x-ratelimit"
        /// No rate-limit headers (only the refusal, and its `Retry-After` if any).
        case none
    }

    /// The statuses a refusal may have: 429 (the default), 403 (GitHub) or 503 (gateways).
    public static let refusalStatuses = [429, 403, 503]

    /// The most requests allowed per `window`; the next one is refused.
    public var limit: Int
    /// The window in seconds.
    public var window: Double
    /// How a refusal's `Retry-After` is written (or that it is left out).
    public var retryAfter: RetryAfterFormat
    /// How requests are counted against `limit`.
    public var algorithm: Algorithm
    /// Which family of rate-limit headers every answer of the stub carries.
    public var headers: HeaderDialect
    /// The refusal's status: one of `refusalStatuses`.
    public var status: Int
    /// The limit's name: GitHub's `X-RateLimit-Resource` and the draft's policy item; `nil` for
    /// the dialect's usual one (`core`, `default`).
    public var name: String?
    /// The refusal's body and its `Content-Type`, when the stub gives one (`nil`: a plain-text
    /// sentence saying which limit was exceeded).
    public var refusalBody: [UInt8]?
    /// The `Content-Type` sent with `refusalBody`.
    public var refusalContentType: String?

    /// A rule of `limit` requests per `window` seconds; unless told otherwise a sliding window,
    /// IETF headers, and a 429 with `Retry-After` in whole seconds.
    public init(limit: Int, window: Double, retryAfter: RetryAfterFormat = .seconds, algorithm: Algorithm = .slidingWindow,
                headers: HeaderDialect = .ietf, status: Int = 429, name: String? = nil,
                refusalBody: [UInt8]? = nil, refusalContentType: String? = nil) {
        self.limit = limit
        self.window = window
        self.retryAfter = retryAfter
        self.algorithm = algorithm
        self.headers = headers
        self.status = status
        self.name = name
        self.refusalBody = refusalBody
        self.refusalContentType = refusalContentType
    }

    /// The name the headers carry: `name`, or the dialect's usual one.
    var headerName: String {
        name ?? (headers == .github ? "core" : "default")
    }
}
