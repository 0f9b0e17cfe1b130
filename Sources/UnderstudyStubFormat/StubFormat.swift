// The builders speak in JSON values; their users see the JSON module through this one.
@_exported import UnderstudyJSON

/// The stub file format's vocabulary, defined once: the keys of every object a stub file holds and
/// every enumerated value. The loader (UnderstudyCore's `StubDecoder`) accepts exactly these keys
/// and suggests among them, the builders in this module write them, and the schema-drift test holds
/// `schema/understudy-stubs.schema.json` (and `docs/stub-format.md`) to them, both ways.
///
/// A new field is added here, decoded in the loader, and given a builder; the drift test names
/// whatever still lacks it.
public enum StubFormat {
    /// Every kind of object in a stub file.
    public enum Object: String, CaseIterable, Sendable {
        /// The file: `{"stubs": [...]}`.
        case document
        /// One of `stubs`.
        case stub
        /// A stub's `request`.
        case request
        /// A header, query or cookie matcher in its object form (`{"contains": "x"}`).
        case valueMatcher
        /// A `body` matcher in its object form.
        case bodyMatcher
        /// `jsonEquals`'s object form.
        case jsonEquals
        /// `jsonPath`'s object form.
        case jsonPath
        /// A stub's `rateLimit`.
        case rateLimit
        /// One of a stub's `responses`.
        case response
        /// `retryAfter`'s object form.
        case retryAfter
        /// `delayMs` as a distribution.
        case delayDistribution
        /// `{"lognormal": {...}}`'s parameters.
        case lognormal
        /// `dribble`'s parameters.
        case dribble
        /// One of `events`.
        case event

        /// The keys this object may have, in the order the format documents them.
        public var keys: [String] {
            switch self {
            case .document: return ["stubs", "$schema"]
            case .stub: return ["id", "description", "request", "responses", "afterLast", "scenario", "whenState", "setState",
                                "rateLimit", "priority", "tokenExpiresIn"]
            case .request: return ["method", "path", "pathPattern", "url", "urlPattern", "query", "headers", "cookies", "body"]
            case .valueMatcher: return ["equals", "contains", "matches", "present", "absent", "equalsIgnoringCase", "doesNotContain",
                                        "doesNotMatch", "allOf", "anyOf", "not"]
            case .bodyMatcher: return ["equals", "contains", "matches", "json", "jsonSubset", "equalsIgnoringCase", "doesNotContain",
                                       "doesNotMatch", "jsonEquals", "jsonPath", "binary", "allOf", "anyOf", "not"]
            case .jsonEquals: return ["value", "ignoreArrayOrder", "ignoreExtraElements"]
            case .jsonPath: return ["expression", "matcher"]
            case .rateLimit: return ["limit", "window", "retryAfter", "algorithm", "headers", "status", "name", "body", "json"]
            case .response: return ["status", "headers", "body", "json", "base64", "bodyFile", "times", "delayMs", "retryAfter", "fault",
                                    "statusMessage", "template", "dribble", "bytesPerSecond", "events"]
            case .retryAfter: return ["httpDateIn"]
            case .delayDistribution: return ["uniform", "lognormal"]
            case .lognormal: return ["median", "sigma", "max"]
            case .dribble: return ["chunks", "overMs"]
            case .event: return ["event", "data", "id", "retry", "comment", "delayMs"]
            }
        }
    }

    /// The response keys that give a body; at most one per response.
    public static let bodySourceKeys = ["body", "json", "base64", "bodyFile"]
    /// The response keys that pace a body; at most one per response.
    public static let streamingKeys = ["dribble", "bytesPerSecond", "events"]

    /// `afterLast`: what a stub does once it has served its last response.
    public enum AfterLast: String, CaseIterable, Sendable {
        /// Keep serving the last response (the default).
        case `repeat`
        /// Start the sequence over.
        case cycle
        /// Stop matching: later stubs or the unmatched response answer.
        case exhaust
    }

    /// `fault`: how the connection breaks instead of answering.
    public enum Fault: String, CaseIterable, Sendable {
        /// A TCP reset.
        case connectionReset = "connection-reset"
        /// A close without a byte sent.
        case emptyResponse = "empty-response"
        /// Bytes that are not HTTP, then a close.
        case malformedResponse = "malformed-response"
        /// The head with a `Content-Length`, then a close before the body.
        case closeAfterHeaders = "close-after-headers"
        /// Random bytes that are not HTTP, then a close (WireMock's `RANDOM_DATA_THEN_CLOSE`).
        case randomDataThenClose = "random-data-then-close"
        /// A chunked head, then bytes that are not a chunk, then a close.
        case malformedResponseChunk = "malformed-response-chunk"
    }

    /// `rateLimit.algorithm`.
    public enum RateLimitAlgorithm: String, CaseIterable, Sendable {
        /// At most `limit` requests in any window (the default).
        case slidingWindow = "sliding-window"
        /// A burst of `limit`, then refilled evenly over the window.
        case tokenBucket = "token-bucket"
    }

    /// `rateLimit.retryAfter`: how a refusal's `Retry-After` is written.
    public enum RateLimitRetryAfter: String, CaseIterable, Sendable {
        /// Whole seconds, rounded up (the default).
        case seconds
        /// Milliseconds precision (`0.237`).
        case fractional
        /// An IMF-fixdate.
        case httpDate = "http-date"
        /// No `Retry-After` (the default with `headers: github`).
        case none
    }

    /// `rateLimit.headers`: which rate-limit headers a rate-limited stub's answers carry.
    public enum RateLimitHeaders: String, CaseIterable, Sendable {
        /// `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds): the default.
        case ietf
        /// The IETF draft's structured `RateLimit-Policy` and `RateLimit` fields.
        case ietfDraft = "ietf-draft"
        /// GitHub's `X-RateLimit-Limit/Remaining/Used/Reset/Resource`, the reset as a Unix epoch.
        case github
        /// `X-RateLimit-Limit/Remaining/Reset`, the reset as seconds.
        case xRateLimit = "x-ratelimit"
        /// No rate-limit headers.
        case none
    }
}
