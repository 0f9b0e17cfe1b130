import UnderstudyStubFormat

/// A rate limit on one stub: at most `limit` requests per `window` seconds; requests over it are
/// refused (`429` by default) with the rate-limit headers of the chosen dialect and, unless
/// turned off, a computed `Retry-After`.
public struct RateLimitRule: Sendable, Equatable {
    /// How requests are counted (the format's enum, ``StubFormat/RateLimitAlgorithm``).
    public typealias Algorithm = StubFormat.RateLimitAlgorithm
    /// How `Retry-After` is written (the format's enum, ``StubFormat/RateLimitRetryAfter``).
    public typealias RetryAfterFormat = StubFormat.RateLimitRetryAfter
    /// Which rate-limit headers every answer of the stub carries (``StubFormat/RateLimitHeaders``).
    public typealias HeaderDialect = StubFormat.RateLimitHeaders

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
    public init(
        limit: Int, window: Double, retryAfter: RetryAfterFormat = .seconds, algorithm: Algorithm = .slidingWindow,
        headers: HeaderDialect = .ietf, status: Int = 429, name: String? = nil,
        refusalBody: [UInt8]? = nil, refusalContentType: String? = nil
    ) {
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
    package var headerName: String {
        name ?? (headers == .github ? "core" : "default")
    }
}
