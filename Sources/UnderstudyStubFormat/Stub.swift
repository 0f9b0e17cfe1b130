#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A stub of the stub file format (``StubFormat``), built in Swift: every field, produced as exactly the JSON the
/// daemon validates (`json`), and installed with one call (`understudy.install(...)`).
///
/// ```swift
/// try await understudy.install(
///     Stub.get("/weather").query("city", "Oslo")
///         .respond(.status(503).retryAfter(2), .json(["temp": 21])),
///     Stub.post("/token").body(.jsonSubset(["grant": "refresh"])).respond(.json(["access_token": "t2"]))
/// )
/// ```
///
/// Each stub remembers where it was written (`#fileID`, `#line`), so when the daemon refuses one
/// the error names that line as well as the daemon's reason.
public struct Stub: Sendable {
    /// The stub object, members in the order the builder calls gave them.
    public private(set) var json: JSONValue
    /// Where the stub was built (its factory call), for error messages.
    public let fileID: String
    /// The line that built the stub, which `StubInstallError` names when the daemon refuses it.
    public let line: Int

    /// A stub whose request matcher is `request` (a stub's `request` object; `[:]` matches every
    /// request) and that has no responses yet (`respond` adds them).
    public init(request: JSONValue = [:], fileID: String = #fileID, line: Int = #line) {
        self.json = ["request": request]
        self.fileID = fileID
        self.line = line
    }

    /// A stub given as raw JSON (a stub object), kept exactly as given.
    public init(json: JSONValue, fileID: String = #fileID, line: Int = #line) {
        self.json = json
        self.fileID = fileID
        self.line = line
    }

    /// The stub as the format's value, which the engine's compile step takes: the builder's JSON,
    /// positioned at the line that built it. (Over the admin API the kit sends ``json``, which the
    /// daemon reads back into a definition positioned in the posted body.)
    public var definition: StubDefinition { StubDefinition(json: json, file: fileID, line: line) }

    // MARK: Factories, one per method

    /// Matches `method` (any, when `nil`) and the exact `path` (any, when `nil`).
    public static func request(_ method: String?, _ path: String?, fileID: String = #fileID, line: Int = #line) -> Stub
    {
        var request: [JSONMember] = []
        if let method { request.append(JSONMember("method", .string(method))) }
        if let path { request.append(JSONMember("path", .string(path))) }
        return Stub(request: .object(request), fileID: fileID, line: line)
    }

    /// Matches `method` (any, when `nil`) and paths the regular expression `pattern` matches whole.
    public static func request(
        _ method: String?, pathPattern pattern: String, fileID: String = #fileID, line: Int = #line
    ) -> Stub {
        var request: [JSONMember] = []
        if let method { request.append(JSONMember("method", .string(method))) }
        request.append(JSONMember("pathPattern", .string(pattern)))
        return Stub(request: .object(request), fileID: fileID, line: line)
    }

    /// Matches `method` (any, when `nil`) and the request target exactly as sent, path and query
    /// undecoded (`url`: `/search?q=a&page=2`; parameters in another order do not match).
    public static func request(_ method: String?, url: String, fileID: String = #fileID, line: Int = #line) -> Stub {
        target(method, "url", url, fileID: fileID, line: line)
    }

    /// Matches `method` (any, when `nil`) and targets (path and query as sent) the regular
    /// expression `pattern` matches whole (`urlPattern`).
    public static func request(
        _ method: String?, urlPattern pattern: String, fileID: String = #fileID, line: Int = #line
    ) -> Stub {
        target(method, "urlPattern", pattern, fileID: fileID, line: line)
    }

    private static func target(_ method: String?, _ key: String, _ value: String, fileID: String, line: Int) -> Stub {
        var request: [JSONMember] = []
        if let method { request.append(JSONMember("method", .string(method))) }
        request.append(JSONMember(key, .string(value)))
        return Stub(request: .object(request), fileID: fileID, line: line)
    }

    /// `GET path`.
    public static func get(_ path: String, fileID: String = #fileID, line: Int = #line) -> Stub {
        request("GET", path, fileID: fileID, line: line)
    }
    /// `POST path`.
    public static func post(_ path: String, fileID: String = #fileID, line: Int = #line) -> Stub {
        request("POST", path, fileID: fileID, line: line)
    }
    /// `PUT path`.
    public static func put(_ path: String, fileID: String = #fileID, line: Int = #line) -> Stub {
        request("PUT", path, fileID: fileID, line: line)
    }
    /// `PATCH path`.
    public static func patch(_ path: String, fileID: String = #fileID, line: Int = #line) -> Stub {
        request("PATCH", path, fileID: fileID, line: line)
    }
    /// `DELETE path`.
    public static func delete(_ path: String, fileID: String = #fileID, line: Int = #line) -> Stub {
        request("DELETE", path, fileID: fileID, line: line)
    }
    /// `HEAD path`.
    public static func head(_ path: String, fileID: String = #fileID, line: Int = #line) -> Stub {
        request("HEAD", path, fileID: fileID, line: line)
    }
    /// Any method, exact `path` (every path when `nil`).
    public static func any(_ path: String? = nil, fileID: String = #fileID, line: Int = #line) -> Stub {
        request(nil, path, fileID: fileID, line: line)
    }

    // MARK: Fields

    /// A copy with stub member `key` set (replaced in place, or appended).
    public func setting(_ key: String, _ value: JSONValue) -> Stub {
        var copy = self
        copy.json = json.setting(key, to: value)
        return copy
    }

    /// A copy with request member `key` set.
    public func settingRequest(_ key: String, _ value: JSONValue) -> Stub {
        setting("request", (json["request"] ?? [:]).setting(key, to: value))
    }

    /// `id`: unique across the daemon (or session); replaces a stub with the same id.
    public func id(_ id: String) -> Stub { setting("id", .string(id)) }

    /// `priority` (≥ 1): lower is tried first; the default is 5, and equal priorities go in load order.
    public func priority(_ priority: Int) -> Stub { setting("priority", JSONValue(priority)) }

    /// `openapi: {"skip": reason}`: `understudy check --openapi` leaves this stub out on purpose (a
    /// deliberately off-spec answer) and lists it, with the reason, as skipped.
    public func openAPISkip(_ reason: String) -> Stub { setting("openapi", ["skip": .string(reason)]) }

    /// `tokenExpiresIn` (seconds > 0): the request's bearer token is valid for this long after it
    /// was issued, on the world's clock; an older one (or one without a readable issue time) gets
    /// 401 `invalid_token`. The issue time is the token's JWT `iat` claim, else the epoch seconds it
    /// ends with (`"at-{{now.epoch}}"` from a templated token endpoint).
    public func tokenExpiresIn(_ seconds: Double) -> Stub { setting("tokenExpiresIn", JSONValue(seconds)) }

    /// `idempotency`: the stub honours idempotency keys as the IETF draft "The Idempotency-Key
    /// HTTP Header Field" describes them. The first request with a key is answered and its answer
    /// kept; the same key with an equal body gets that answer again (`Idempotent-Replayed: true`)
    /// without moving the stub's sequence; the same key with another body gets `mismatchStatus`;
    /// a key whose first request is still being answered gets 409.
    ///
    /// - Parameters:
    ///   - header: the key's header (default `Idempotency-Key`).
    ///   - required: a request without the key gets 400 (default: it is answered as usual).
    ///   - ttl: seconds a key lives on the world's clock (default 86400, a day).
    ///   - mismatchStatus: the answer to a key reused with another body: 422 (the default), 409 or 400.
    public func idempotency(
        header: String? = nil, required: Bool? = nil, ttl: Double? = nil, mismatchStatus: Int? = nil
    ) -> Stub {
        var rule: JSONValue = [:]
        if let header { rule = rule.setting(StubFormat.Key.header.name, to: .string(header)) }
        if let required { rule = rule.setting(StubFormat.Key.required.name, to: .bool(required)) }
        if let ttl { rule = rule.setting(StubFormat.Key.ttl.name, to: JSONValue(ttl)) }
        if let mismatchStatus {
            rule = rule.setting(StubFormat.Key.mismatchStatus.name, to: JSONValue(mismatchStatus))
        }
        return setting(StubFormat.Key.idempotency.name, rule)
    }

    /// `earlyRetries`: what the stub does with a request that comes back, from the same client
    /// (`User-Agent`), before the wait its previous answer asked for (`Retry-After`, or a refusal's
    /// `X-RateLimit-Reset`) has passed on the world's clock: `"observe"` (the default) serves it and
    /// journals it as early; `"refuse"` answers it with that refusal again. Either way the journal's
    /// `retry` says how long was asked and waited.
    public func earlyRetries(_ mode: EarlyRetries) -> Stub {
        setting(StubFormat.Key.earlyRetries.name, .string(mode.rawValue))
    }

    /// The values of `earlyRetries`.
    public enum EarlyRetries: String, Sendable, CaseIterable {
        /// Serve an early retry as usual; the journal marks it early.
        case observe
        /// Answer an early retry with the previous refusal again.
        case refuse
    }

    /// `description`: free text for readers.
    public func description(_ text: String) -> Stub { setting("description", .string(text)) }

    /// Query parameter `name` must match `matcher` (a plain string is exact equality).
    public func query(_ name: String, _ matcher: ValueMatcher) -> Stub {
        settingRequest("query", (json["request"]?["query"] ?? [:]).setting(name, to: matcher.json))
    }

    /// Header `name` (any case) must match `matcher` (a plain string is exact equality).
    public func header(_ name: String, _ matcher: ValueMatcher) -> Stub {
        settingRequest("headers", (json["request"]?["headers"] ?? [:]).setting(name, to: matcher.json))
    }

    /// Cookie `name` (from the `Cookie` header) must match `matcher` (a plain string is exact equality).
    public func cookie(_ name: String, _ matcher: ValueMatcher) -> Stub {
        settingRequest("cookies", (json["request"]?["cookies"] ?? [:]).setting(name, to: matcher.json))
    }

    /// The body must match `matcher`.
    public func body(_ matcher: BodyMatcher) -> Stub { settingRequest("body", matcher.json) }

    /// Appends `responses` to the sequence (served in order; see `afterLast`).
    public func respond(_ responses: StubResponse...) -> Stub { respond(responses) }

    /// Appends `responses` to the sequence.
    public func respond(_ responses: [StubResponse]) -> Stub {
        setting("responses", .array((json["responses"]?.arrayValue ?? []) + responses.map(\.json)))
    }

    /// Serves the last response given so far `count` times before moving on (its `times`):
    /// `.respond(.status(429)).times(2)`.
    public func times(_ count: Int) -> Stub {
        var responses = json["responses"]?.arrayValue ?? []
        guard let last = responses.popLast() else { return setting("responses", [["times": JSONValue(count)]]) }
        return setting("responses", .array(responses + [last.setting("times", to: JSONValue(count))]))
    }

    /// `afterLast`: what happens once the sequence has been served.
    public func afterLast(_ policy: AfterLast) -> Stub { setting("afterLast", .string(policy.rawValue)) }

    /// `scenario`, with `whenState` (match only in that state) and `setState` (move to it after
    /// answering) when given.
    public func scenario(_ name: String, whenState: String? = nil, setState: String? = nil) -> Stub {
        var stub = setting("scenario", .string(name))
        if let whenState { stub = stub.setting("whenState", .string(whenState)) }
        if let setState { stub = stub.setting("setState", .string(setState)) }
        return stub
    }

    /// `rateLimit`: at most `limit` requests per `window` seconds; the rest are refused (429
    /// unless `status` says otherwise).
    ///
    /// - Parameters:
    ///   - limit: how many requests a window admits.
    ///   - window: the window, in seconds.
    ///   - retryAfter: how the refusal's `Retry-After` is written (default: whole seconds).
    ///   - algorithm: sliding window (default) or token bucket.
    ///   - headers: the rate-limit headers' dialect (default `.ietf`); `.github` also makes
    ///     `retryAfter` default to `.none`, as GitHub's primary limit sends none.
    ///   - status: the refusal's status: 429, 403 or 503.
    ///   - name: GitHub's `X-RateLimit-Resource` / the draft's policy name.
    ///   - refusal: the refusal's body (default: a sentence naming the limit).
    public func rateLimit(
        _ limit: Int, per window: Double, retryAfter: RateLimitRetryAfter? = nil,
        algorithm: RateLimitAlgorithm? = nil, headers: RateLimitHeaders? = nil,
        status: Int? = nil, name: String? = nil, refusal: RateLimitRefusal? = nil
    ) -> Stub {
        var rule: JSONValue = ["limit": JSONValue(limit), "window": JSONValue(window)]
        if let retryAfter { rule = rule.setting("retryAfter", to: .string(retryAfter.rawValue)) }
        if let algorithm { rule = rule.setting("algorithm", to: .string(algorithm.rawValue)) }
        if let headers { rule = rule.setting("headers", to: .string(headers.rawValue)) }
        if let status { rule = rule.setting("status", to: JSONValue(status)) }
        if let name { rule = rule.setting("name", to: .string(name)) }
        switch refusal {
        case .text(let text)?: rule = rule.setting("body", to: .string(text))
        case .json(let value)?: rule = rule.setting("json", to: value)
        case nil: break
        }
        return setting("rateLimit", rule)
    }

    /// `afterLast` values (the format's, ``StubFormat/AfterLast``).
    public typealias AfterLast = StubFormat.AfterLast
    /// How a rate limit's refusal writes `Retry-After` (``StubFormat/RateLimitRetryAfter``).
    public typealias RateLimitRetryAfter = StubFormat.RateLimitRetryAfter
    /// Which rate-limit headers a rate-limited stub's answers carry (``StubFormat/RateLimitHeaders``).
    public typealias RateLimitHeaders = StubFormat.RateLimitHeaders
    /// A rate limit's algorithm (``StubFormat/RateLimitAlgorithm``).
    public typealias RateLimitAlgorithm = StubFormat.RateLimitAlgorithm

    /// A rate limit's refusal body: `body` (text) or `json` in the stub's `rateLimit`.
    public enum RateLimitRefusal: Sendable {
        /// Plain text.
        case text(String)
        /// JSON, sent as `application/json`.
        case json(JSONValue)
    }
}
