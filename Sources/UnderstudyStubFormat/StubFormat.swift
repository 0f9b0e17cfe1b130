// The builders speak in JSON values; their users see the JSON module through this one.
@_exported import UnderstudyJSON

/// The stub file format's vocabulary, defined once: the keys of every object a stub file holds and
/// every enumerated value. The compile step (UnderstudyStubs' `StubCompiler`) accepts exactly these
/// keys and suggests among them, the builders in this module write them, and the schema-drift test
/// holds `schema/understudy-stubs.schema.json` to them both ways and `docs/stub-format.md` to name
/// each.
///
/// A new field is added here, read by the compile step, given a builder, and put in the schema and
/// the reference page (ARCHITECTURE.md, "Where to add…"); the compiler, round-trip and drift tests
/// name whatever still lacks it.
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
        /// `xmlEquals`'s object form.
        case xmlEquals
        /// `xPath`'s object form.
        case xPath
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
        /// `fault`'s object form: one of `rstStream` or `goaway`, with its parameters.
        case fault
        /// `fault.rstStream`: an HTTP/2 `RST_STREAM`'s error code and whether the HEADERS go first.
        case rstStream
        /// `fault.goaway`: an HTTP/2 `GOAWAY`'s last-stream id, error code, and what happens to the
        /// streams in flight.
        case goaway
        /// A response's `proxy`.
        case proxy
        /// A stub's `idempotency`: the key header, whether it is required, how long a key lives
        /// and the status of a key reused with another body.
        case idempotency
        /// One of a response's `webhooks`: a request the daemon sends after the response.
        case webhook
        /// A webhook's `signing`: the provider format its signature is computed in, and the secret.
        case signing
        /// A webhook's `retry` in its object form: exponential backoff with a cap.
        case backoff

        /// The keys this object may have, in the order the format documents them.
        public var keys: [String] {
            switch self {
            case .document: return ["stubs", "$schema"]
            case .stub:
                return [
                    "id", "description", "request", "responses", "afterLast", "scenario", "whenState", "setState",
                    "rateLimit", "priority", "openapi", "tokenExpiresIn", "idempotency", "earlyRetries",
                ]
            case .request:
                return ["method", "path", "pathPattern", "url", "urlPattern", "query", "headers", "cookies", "body"]
            case .valueMatcher:
                return [
                    "equals", "contains", "matches", "present", "absent", "equalsIgnoringCase", "doesNotContain",
                    "doesNotMatch", "allOf", "anyOf", "not",
                ]
            case .bodyMatcher:
                return [
                    "equals", "contains", "matches", "json", "jsonSubset", "equalsIgnoringCase", "doesNotContain",
                    "doesNotMatch", "jsonEquals", "jsonPath", "xmlEquals", "xPath", "binary", "allOf", "anyOf", "not",
                    "form",
                ]
            case .jsonEquals: return ["value", "ignoreArrayOrder", "ignoreExtraElements", "placeholders"]
            case .jsonPath: return ["expression", "matcher", "jsonEquals"]
            case .xmlEquals:
                return ["value", "placeholders", "placeholderOpening", "placeholderClosing", "exemptedComparisons"]
            case .xPath: return ["expression", "namespaces", "matcher"]
            case .rateLimit:
                return ["limit", "window", "retryAfter", "algorithm", "headers", "status", "name", "body", "json"]
            case .response:
                return [
                    "status", "headers", "body", "json", "base64", "bodyFile", "times", "delayMs", "retryAfter",
                    "fault",
                    "statusMessage", "template", "dribble", "bytesPerSecond", "events", "proxy", "webhooks",
                    "compress", "compressWhen", "compressMistake",
                ]
            case .retryAfter: return ["httpDateIn"]
            case .delayDistribution: return ["uniform", "lognormal"]
            case .lognormal: return ["median", "sigma", "max"]
            case .dribble: return ["chunks", "overMs"]
            case .event: return ["event", "data", "id", "retry", "comment", "delayMs"]
            case .fault: return ["rstStream", "goaway"]
            case .rstStream: return ["errorCode", "afterHeaders"]
            case .goaway: return ["lastStreamId", "errorCode", "inFlight"]
            case .proxy: return ["to", "stripPrefix", "timeoutMs", "setHeaders", "removeHeaders", "addResponseHeaders"]
            case .idempotency: return ["header", "required", "ttl", "mismatchStatus"]
            case .webhook:
                return ["url", "method", "headers", "json", "body", "delayMs", "timeoutMs", "signing", "retry"]
            case .backoff: return ["initialMs", "factor", "maxMs", "attempts"]
            case .signing:
                return [
                    "format", "secret", "secretEnv", "mistake", "header", "signed", "encoding", "prefix",
                    "timestampHeader",
                ]
            }
        }
    }

    /// The response keys that give a body; at most one per response.
    public static let bodySourceKeys = ["body", "json", "base64", "bodyFile"]
    /// The response keys that pace a body; at most one per response.
    public static let streamingKeys = ["dribble", "bytesPerSecond", "events"]

    /// The response keys a `proxy` response may have besides `proxy`: the rest of the answer is
    /// the upstream's.
    public static let proxyCompanionKeys = ["times", "delayMs"]

    /// The webhook keys that give a body; at most one per webhook.
    public static let webhookBodyKeys = ["json", "body"]

    /// `afterLast`: what a stub does once it has served its last response. The engine serves
    /// this enum itself (UnderstudyStubs' `AfterLast` is this type).
    public enum AfterLast: String, CaseIterable, Sendable {
        /// Keep serving the last response (the default).
        case `repeat`
        /// Start over from the first response.
        case cycle
        /// Stop matching, so later stubs or the unmatched response answer ("respond N times, then fail").
        case exhaust
    }

    /// `fault`: a broken response the transport carries out for real, so clients meet the failure
    /// as they would on a network. The engine, the journal and the transport use this enum
    /// (UnderstudyHTTP's `Fault` is this type).
    public enum Fault: String, CaseIterable, Sendable, Codable {
        /// Reset the connection (RST, via `SO_LINGER` 0) without sending anything.
        case connectionReset = "connection-reset"
        /// Close the connection without sending a byte.
        case emptyResponse = "empty-response"
        /// Send bytes that are not HTTP, then close.
        case malformedResponse = "malformed-response"
        /// Send the status line and headers (with a `Content-Length`), then close before the body.
        case closeAfterHeaders = "close-after-headers"
        /// Send bytes that are not HTTP (WireMock's fixed garbage), then close (WireMock's `RANDOM_DATA_THEN_CLOSE`).
        case randomDataThenClose = "random-data-then-close"
        /// Send the status line and `Transfer-Encoding: chunked` headers, then a chunk that breaks
        /// the chunked framing, then close (WireMock's `MALFORMED_RESPONSE_CHUNK`).
        case malformedResponseChunk = "malformed-response-chunk"
        /// HTTP/2: `RST_STREAM` with `INTERNAL_ERROR` instead of the response (over HTTP/1.1: as
        /// `empty-response`).
        case rstStream = "rst-stream"
        /// HTTP/2: `RST_STREAM` with `REFUSED_STREAM` (the request was not processed; safe to retry).
        case rstStreamRefused = "rst-stream-refused"
        /// HTTP/2: `RST_STREAM` with `CANCEL`.
        case rstStreamCancel = "rst-stream-cancel"
        /// HTTP/2: the response's `HEADERS`, then `RST_STREAM` with `INTERNAL_ERROR` before any body
        /// (over HTTP/1.1: as `close-after-headers`).
        case rstStreamAfterHeaders = "rst-stream-after-headers"
        /// HTTP/2: `GOAWAY` (`NO_ERROR`) whose last-stream id is the stream before this one, so this
        /// request was not processed; streams already in flight finish, then the connection closes
        /// (over HTTP/1.1: as `empty-response`).
        case goaway
        /// HTTP/2: `GOAWAY` (`INTERNAL_ERROR`, the same last-stream id), then the connection closes at
        /// once, cutting streams in flight (over HTTP/1.1: as `empty-response`).
        case goawayNow = "goaway-now"
        /// The response's headers, then no body, as if the client's flow-control window were never
        /// updated: the stream (HTTP/1.1: the connection) stays open until the client gives up.
        case flowControlStall = "flow-control-stall"

        /// Whether the response's status and headers go out before the fault (the journal records them).
        public var sendsHead: Bool {
            switch self {
            case .closeAfterHeaders, .malformedResponseChunk, .rstStreamAfterHeaders, .flowControlStall: return true
            default: return false
            }
        }

        /// The HTTP/2 error code this value sends when the stub names none (the `rst-stream*` and
        /// `goaway*` values); nil for the faults that send no `RST_STREAM` or `GOAWAY`.
        public var http2ErrorCode: HTTP2ErrorCode? {
            switch self {
            case .rstStream, .rstStreamAfterHeaders, .goawayNow: return .internalError
            case .rstStreamRefused: return .refusedStream
            case .rstStreamCancel: return .cancel
            case .goaway: return .noError
            default: return nil
            }
        }
    }

    /// `fault.rstStream.errorCode` and `fault.goaway.errorCode`: HTTP/2's error codes (RFC 9113 §7),
    /// by their names in the RFC.
    public enum HTTP2ErrorCode: String, CaseIterable, Sendable, Codable {
        /// `NO_ERROR` (0x0): a graceful end.
        case noError = "NO_ERROR"
        /// `PROTOCOL_ERROR` (0x1).
        case protocolError = "PROTOCOL_ERROR"
        /// `INTERNAL_ERROR` (0x2): the default of `rstStream`.
        case internalError = "INTERNAL_ERROR"
        /// `FLOW_CONTROL_ERROR` (0x3).
        case flowControlError = "FLOW_CONTROL_ERROR"
        /// `SETTINGS_TIMEOUT` (0x4).
        case settingsTimeout = "SETTINGS_TIMEOUT"
        /// `STREAM_CLOSED` (0x5).
        case streamClosed = "STREAM_CLOSED"
        /// `FRAME_SIZE_ERROR` (0x6).
        case frameSizeError = "FRAME_SIZE_ERROR"
        /// `REFUSED_STREAM` (0x7): the request was not processed, so a client may retry it.
        case refusedStream = "REFUSED_STREAM"
        /// `CANCEL` (0x8): the stream is no longer needed.
        case cancel = "CANCEL"
        /// `COMPRESSION_ERROR` (0x9).
        case compressionError = "COMPRESSION_ERROR"
        /// `CONNECT_ERROR` (0xa).
        case connectError = "CONNECT_ERROR"
        /// `ENHANCE_YOUR_CALM` (0xb): the peer is generating excessive load.
        case enhanceYourCalm = "ENHANCE_YOUR_CALM"
        /// `INADEQUATE_SECURITY` (0xc).
        case inadequateSecurity = "INADEQUATE_SECURITY"
        /// `HTTP_1_1_REQUIRED` (0xd).
        case http11Required = "HTTP_1_1_REQUIRED"

        /// The code on the wire (the cases are in the RFC's order, from 0).
        public var code: UInt32 { UInt32(Self.allCases.firstIndex(of: self) ?? 0) }
    }

    /// `fault.goaway.lastStreamId`: the last-stream id the `GOAWAY` names.
    public enum GoawayLastStream: Sendable, Equatable, Hashable {
        /// The stream before this one (the default): this request was not processed, so a client
        /// may retry it on a new connection.
        case previous
        /// This stream: the client is told it was processed (it was, by the fault), so a careful
        /// client does not retry it; the stream itself is never answered.
        case this
        /// This stream id, whatever this stream's (0 to 2^31 - 1).
        case id(Int32)

        /// The names `lastStreamId` takes besides a number.
        public static let names = ["previous", "this"]

        /// The id the `GOAWAY` names when it is sent on stream `stream`.
        public func resolved(on stream: Int32) -> Int32 {
            switch self {
            case .previous: return max(0, stream - 2)
            case .this: return stream
            case .id(let id): return id
            }
        }

        /// As the stub format writes it: `"previous"`, `"this"` or the number.
        public var json: JSONValue {
            switch self {
            case .previous: return .string("previous")
            case .this: return .string("this")
            case .id(let id): return JSONValue(Int(id))
            }
        }
    }

    /// `fault.goaway.inFlight`: what happens to the streams the `GOAWAY`'s last-stream id covers.
    public enum GoawayInFlight: String, CaseIterable, Sendable {
        /// They are answered, then the connection closes (the default).
        case finish
        /// The connection closes at once, cutting them.
        case cut
    }

    /// `rateLimit.algorithm`: how requests are counted.
    public enum RateLimitAlgorithm: String, CaseIterable, Sendable {
        /// At most `limit` requests in any `window` seconds (the default).
        case slidingWindow = "sliding-window"
        /// A bucket of `limit` tokens refilled evenly over `window` seconds; allows bursts up to `limit`.
        case tokenBucket = "token-bucket"
    }

    /// `signing.format`: whose webhook signature a webhook carries (docs/webhooks.md cites each
    /// provider's documentation).
    public enum SigningFormat: String, CaseIterable, Sendable {
        /// `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`.
        case stripe
        /// `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of body>` and `X-GitHub-Delivery`.
        case github
        /// `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of
        /// "id.timestamp.body">`, the secret in `whsec_…` form (Svix, the Standard Webhooks spec).
        case standardWebhooks = "standard-webhooks"
        /// `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:timestamp:body">` and `X-Slack-Request-Timestamp`.
        case slack
        /// A header of your naming over the body (or `timestamp.body`), hex or base64.
        case hmacSHA256 = "hmac-sha256"
    }

    /// A webhook's `retry` as a name: a provider's published schedule.
    public enum RetryPreset: String, CaseIterable, Sendable {
        /// Svix's (and so Standard Webhooks senders'): after the first attempt, retries 5 s, 5 min,
        /// 30 min, 2 h, 5 h, 10 h and 10 h after each failure.
        case svix
        /// No retry (the default): the first failure is final.
        case none
    }

    /// `compress`: the content coding a response's body is sent in (`Content-Encoding`), compressed
    /// by the transport with zlib.
    public enum Compression: String, CaseIterable, Sendable {
        /// gzip (RFC 1952).
        case gzip
        /// zlib-wrapped deflate (RFC 1950), what HTTP's `deflate` coding means (RFC 9110 §8.4.1.2).
        case deflate
        /// brotli (RFC 7932), with Debian's libbrotli1 (libbrotlienc.so.1), opened when a stub asks for it.
        case br
    }

    /// `compressWhen`: when the body is compressed.
    public enum CompressWhen: String, CaseIterable, Sendable {
        /// When the request's `Accept-Encoding` accepts the coding (the default).
        case accepted
        /// Whatever the request accepts.
        case always
        /// Never: the body goes as written (a WireMock root's gzip default turned off).
        case never
    }

    /// `compressMistake`: a compressed answer wrong on purpose, for a client's decoding-error tests.
    public enum CompressMistake: String, CaseIterable, Sendable {
        /// The body compressed with `compress`, labelled with another coding (gzip as `deflate`,
        /// deflate and br as `gzip`).
        case wrongLabel = "wrong-label"
        /// The body compressed twice, labelled once.
        case twice
        /// The compressed stream cut in half (no end of stream, no trailer); `Content-Length` is that
        /// of the bytes sent.
        case truncated
    }

    /// `signing.mistake`: a signature wrong on purpose, for a receiver's rejection tests.
    public enum SigningMistake: String, CaseIterable, Sendable {
        /// Signed with another secret than `secret`.
        case wrongSecret = "wrong-secret"
        /// Signed correctly, with a timestamp an hour old: past every provider's tolerance.
        case staleTimestamp = "stale-timestamp"
        /// Signed correctly, then the body changed (a space added) before it is sent.
        case tamperedBody = "tampered-body"
    }

    /// `signing.signed` (`hmac-sha256` only): what the HMAC is computed over.
    public enum SignedContent: String, CaseIterable, Sendable {
        /// The body's bytes (the default).
        case body
        /// The Unix timestamp, a `.`, then the body (the timestamp sent in `timestampHeader`).
        case timestampBody = "timestamp.body"
    }

    /// `signing.encoding` (`hmac-sha256` only): how the HMAC is written.
    public enum SignatureEncoding: String, CaseIterable, Sendable {
        /// Lower-case hexadecimal (the default).
        case hex
        /// Base64 with padding.
        case base64
    }

    /// `rateLimit.retryAfter`: how a refusal's `Retry-After` is written.
    public enum RateLimitRetryAfter: String, CaseIterable, Sendable {
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

    /// `rateLimit.headers`: which rate-limit headers every answer of a rate-limited stub carries,
    /// as one family of real APIs sends them.
    public enum RateLimitHeaders: String, CaseIterable, Sendable {
        /// `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (delta-seconds): the
        /// IETF draft's older separate fields (the default).
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
}
