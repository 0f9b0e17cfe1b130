#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One response of a stub's sequence: every response field of the stub format. Start from a
/// factory (`.status(503)`, `.json(...)`, `.text(...)`, `.fault(.connectionReset)`) and chain.
public struct StubResponse: Sendable {
    /// The response object, members in the order given.
    public private(set) var json: JSONValue

    /// A response given as raw JSON (a response object), kept exactly as given.
    public init(json: JSONValue) { self.json = json }

    /// A copy with response member `key` set.
    public func setting(_ key: String, _ value: JSONValue) -> StubResponse {
        StubResponse(json: json.setting(key, to: value))
    }

    // MARK: Factories

    /// Status `code` and no body.
    public static func status(_ code: Int) -> StubResponse { StubResponse(json: ["status": JSONValue(code)]) }
    /// 200 with a JSON body (`Content-Type: application/json` unless set), written in the order given.
    public static func json(_ value: JSONValue) -> StubResponse { StubResponse(json: ["json": value]) }
    /// 200 with a JSON body: any `Encodable` value, encoded with `JSONEncoder`.
    public static func json<Value: Encodable>(encoding value: Value) throws -> StubResponse {
        .json(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value)))
    }
    /// 200 with a text body.
    public static func text(_ body: String) -> StubResponse { StubResponse(json: ["body": .string(body)]) }
    /// 200 with a binary body (sent as `base64`).
    public static func data(_ body: Data) -> StubResponse {
        StubResponse(json: ["base64": .string(body.base64EncodedString())])
    }
    /// A body read from `path`, relative to the stub file (stub files only: the admin API refuses it).
    public static func bodyFile(_ path: String) -> StubResponse { StubResponse(json: ["bodyFile": .string(path)]) }
    /// The connection breaks instead of answering.
    public static func fault(_ fault: Fault) -> StubResponse { StubResponse(json: ["fault": .string(fault.rawValue)]) }
    /// HTTP/2: `RST_STREAM` with `errorCode` instead of the response, or after its HEADERS
    /// (`{"fault": {"rstStream": {...}}}`; over HTTP/1.1 as `empty-response` or `close-after-headers`).
    public static func rstStream(_ errorCode: HTTP2ErrorCode = .internalError, afterHeaders: Bool = false)
        -> StubResponse
    {
        StubResponse(json: [:]).rstStream(errorCode, afterHeaders: afterHeaders)
    }
    /// HTTP/2: `GOAWAY` naming `lastStreamId` with `errorCode` instead of the response; the streams
    /// it covers finish (`.finish`) or are cut (`.cut`) (`{"fault": {"goaway": {...}}}`; over
    /// HTTP/1.1 as `empty-response`).
    public static func goaway(
        lastStreamId: GoawayLastStream = .previous, errorCode: HTTP2ErrorCode = .noError,
        inFlight: GoawayInFlight = .finish
    ) -> StubResponse {
        StubResponse(json: [:]).goaway(lastStreamId: lastStreamId, errorCode: errorCode, inFlight: inFlight)
    }

    /// Forwards the request to `upstream` (`https://api.example.com`) and answers with what it
    /// sends back (`proxy`): `stripPrefix` is taken off the request's path first; `timeoutMs`
    /// bounds the upstream exchange (a `502` past it); `setHeaders` replace (or add) the client's
    /// fields of their names and `removeHeaders` are taken off the forwarded request;
    /// `addResponseHeaders` are added to the upstream's answer. Only `times` and `delayMs` go with it.
    public static func proxy(
        to upstream: String, stripPrefix: String? = nil, timeoutMs: Double? = nil,
        setHeaders: [String: String] = [:], removeHeaders: [String] = [], addResponseHeaders: [String: String] = [:]
    ) -> StubResponse {
        var proxy: JSONValue = ["to": .string(upstream)]
        if let stripPrefix { proxy = proxy.setting("stripPrefix", to: .string(stripPrefix)) }
        if let timeoutMs { proxy = proxy.setting("timeoutMs", to: JSONValue(timeoutMs)) }
        func object(_ fields: [String: String]) -> JSONValue {
            .object(fields.sorted { $0.key < $1.key }.map { JSONMember($0.key, .string($0.value)) })
        }
        if !setHeaders.isEmpty { proxy = proxy.setting("setHeaders", to: object(setHeaders)) }
        if !removeHeaders.isEmpty {
            proxy = proxy.setting("removeHeaders", to: .array(removeHeaders.map(JSONValue.string)))
        }
        if !addResponseHeaders.isEmpty { proxy = proxy.setting("addResponseHeaders", to: object(addResponseHeaders)) }
        return StubResponse(json: ["proxy": proxy])
    }

    // MARK: Modifiers

    /// `status`.
    public func status(_ code: Int) -> StubResponse { setting("status", JSONValue(code)) }
    /// A JSON body.
    public func json(_ value: JSONValue) -> StubResponse { setting("json", value) }
    /// A text body.
    public func text(_ body: String) -> StubResponse { setting("body", .string(body)) }
    /// A binary body.
    public func data(_ body: Data) -> StubResponse { setting("base64", .string(body.base64EncodedString())) }
    /// A fault.
    public func fault(_ fault: Fault) -> StubResponse { setting("fault", .string(fault.rawValue)) }
    /// The body compressed with `coding` (`compress`) by the daemon, labelled with `Content-Encoding`:
    /// `when` the request accepts it (the default), always or never; `mistake` makes the answer wrong
    /// on purpose (`compressMistake`), for a client's decoding-error tests.
    public func compressed(
        _ coding: StubFormat.Compression, when: StubFormat.CompressWhen = .accepted,
        mistake: StubFormat.CompressMistake? = nil
    ) -> StubResponse {
        var response = setting("compress", .string(coding.rawValue))
        if when != .accepted { response = response.setting("compressWhen", .string(when.rawValue)) }
        if let mistake { response = response.setting("compressMistake", .string(mistake.rawValue)) }
        return response
    }
    /// The `rstStream` fault, as the factory of the same name writes it.
    public func rstStream(_ errorCode: HTTP2ErrorCode = .internalError, afterHeaders: Bool = false) -> StubResponse {
        setting(
            "fault", ["rstStream": ["errorCode": .string(errorCode.rawValue), "afterHeaders": .bool(afterHeaders)]])
    }
    /// The `goaway` fault, as the factory of the same name writes it.
    public func goaway(
        lastStreamId: GoawayLastStream = .previous, errorCode: HTTP2ErrorCode = .noError,
        inFlight: GoawayInFlight = .finish
    ) -> StubResponse {
        setting(
            "fault",
            [
                "goaway": [
                    "lastStreamId": lastStreamId.json, "errorCode": .string(errorCode.rawValue),
                    "inFlight": .string(inFlight.rawValue),
                ]
            ])
    }

    /// Adds header `name: value` (a second call with the same name adds a second value, in order).
    public func header(_ name: String, _ value: String) -> StubResponse {
        let existing = json["headers"]?[name]
        let merged: JSONValue =
            switch existing {
            case .none: .string(value)
            case .array(let values)?: .array(values + [.string(value)])
            case let single?: .array([single, .string(value)])
            }
        return setting("headers", (json["headers"] ?? [:]).setting(name, to: merged))
    }

    /// Adds a webhook (one of `webhooks`): after this response is sent the daemon sends `method`
    /// (POST when nil) to `url` with `headers` and a `json` or `body` body, `delayMs` after the
    /// response on the world's clock, giving the receiver `timeoutMs` to answer. The URL, header
    /// values and body are templates of the triggering request and the sent response
    /// (`{{request.json.callback_url}}`, `{{response.json.id}}`); `signing` signs it as a provider
    /// does; `retry` tries a failed attempt again. See docs/webhooks.md.
    public func webhook(
        _ url: String, method: String? = nil, headers: [String: String] = [:], json: JSONValue? = nil,
        body: String? = nil, delayMs: Double? = nil, timeoutMs: Double? = nil, signing: WebhookSigning? = nil,
        retry: WebhookRetry? = nil
    ) -> StubResponse {
        addingWebhook(
            ["url": .string(url)], method: method, headers: headers, json: json, body: body, delayMs: delayMs,
            timeoutMs: timeoutMs, signing: signing, retry: retry)
    }

    /// Adds a webhook without `url`, as ``webhook(_:method:headers:json:body:delayMs:timeoutMs:signing:retry:)``
    /// does otherwise: it goes to the session's default target (`webhookDefaults.url`, given when the
    /// session is created), so the stub serves every test, each with its own receiver.
    public func webhook(
        method: String? = nil, headers: [String: String] = [:], json: JSONValue? = nil, body: String? = nil,
        delayMs: Double? = nil, timeoutMs: Double? = nil, signing: WebhookSigning? = nil, retry: WebhookRetry? = nil
    ) -> StubResponse {
        addingWebhook(
            .object([]), method: method, headers: headers, json: json, body: body, delayMs: delayMs,
            timeoutMs: timeoutMs, signing: signing, retry: retry)
    }

    private func addingWebhook(
        _ start: JSONValue, method: String?, headers: [String: String], json: JSONValue?, body: String?,
        delayMs: Double?, timeoutMs: Double?, signing: WebhookSigning?, retry: WebhookRetry?
    ) -> StubResponse {
        var hook = start
        if let method { hook = hook.setting("method", to: .string(method)) }
        if !headers.isEmpty {
            hook = hook.setting(
                "headers", to: .object(headers.sorted { $0.key < $1.key }.map { JSONMember($0.key, .string($0.value)) })
            )
        }
        if let json { hook = hook.setting("json", to: json) }
        if let body { hook = hook.setting("body", to: .string(body)) }
        if let delayMs { hook = hook.setting("delayMs", to: JSONValue(delayMs)) }
        if let timeoutMs { hook = hook.setting("timeoutMs", to: JSONValue(timeoutMs)) }
        if let signing { hook = hook.setting("signing", to: signing.json) }
        if let retry { hook = hook.setting("retry", to: retry.json) }
        var hooks: [JSONValue] = []
        if case .array(let existing)? = self.json["webhooks"] { hooks = existing }
        return setting("webhooks", .array(hooks + [hook]))
    }

    /// `retryAfter` in seconds, written as given (`1.5` → `Retry-After: 1.5`).
    public func retryAfter(_ seconds: Double) -> StubResponse { setting("retryAfter", JSONValue(seconds)) }
    /// `retryAfter` as an HTTP date `seconds` after the response is sent (`{"httpDateIn": seconds}`).
    public func retryAfter(httpDateIn seconds: Double) -> StubResponse {
        setting("retryAfter", ["httpDateIn": JSONValue(seconds)])
    }
    /// `times`: serve this response `count` times before moving on.
    public func times(_ count: Int) -> StubResponse { setting("times", JSONValue(count)) }
    /// `delayMs`: wait `milliseconds` before answering.
    public func delay(milliseconds: Double) -> StubResponse { setting("delayMs", JSONValue(milliseconds)) }
    /// `delayMs` as a distribution drawn per response (daemons with delay distributions; older
    /// daemons refuse it with a clear error).
    public func delay(_ distribution: DelayDistribution) -> StubResponse { setting("delayMs", distribution.json) }

    /// The stub format's faults (``StubFormat/Fault``).
    public typealias Fault = StubFormat.Fault
    /// HTTP/2's error codes (``StubFormat/HTTP2ErrorCode``).
    public typealias HTTP2ErrorCode = StubFormat.HTTP2ErrorCode
    /// A `GOAWAY`'s last-stream id (``StubFormat/GoawayLastStream``).
    public typealias GoawayLastStream = StubFormat.GoawayLastStream
    /// What a `GOAWAY` does to the streams in flight (``StubFormat/GoawayInFlight``).
    public typealias GoawayInFlight = StubFormat.GoawayInFlight

    /// A `delayMs` distribution (milliseconds); the engine draws from this same type.
    public enum DelayDistribution: Sendable, Equatable {
        /// Uniform between `min` and `max`.
        case uniform(min: Double, max: Double)
        /// Log-normal with this median and sigma, capped at `max` when given.
        case lognormal(median: Double, sigma: Double, max: Double? = nil)

        /// `delayMs` as the stub format writes it.
        public var json: JSONValue {
            switch self {
            case let .uniform(min, max): ["uniform": [JSONValue(min), JSONValue(max)]]
            case let .lognormal(median, sigma, max):
                [
                    "lognormal": max.map {
                        ["median": JSONValue(median), "sigma": JSONValue(sigma), "max": JSONValue($0)]
                    }
                        ?? ["median": JSONValue(median), "sigma": JSONValue(sigma)]
                ]
            }
        }
    }
}
