import RawStructuredFieldValues

/// What a response says about the client's rate limit, from whichever fields it carries:
///
/// - `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (delta-seconds): what Understudy
///   and many APIs send today.
/// - The IETF draft's structured fields (draft-ietf-httpapi-ratelimit-headers, RFC 9651 syntax):
///   `RateLimit: "default";r=5;t=30` (a list of policies, each with `r` remaining quota units
///   and `t` seconds until the quota resets) and `RateLimit-Policy: "default";q=100;w=60` (each
///   policy's quota `q` per window `w`). The draft's earlier dictionary form
///   `RateLimit: limit=100, remaining=5, reset=30` is read too.
/// - `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`: GitHub's and many other
///   APIs' fields. The reset comes in two forms, told apart by magnitude: a value of 10⁹ or more
///   is a Unix epoch in seconds (GitHub: docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api;
///   Twitter/X), measured from the response's `Date` (or, without one, the local clock); a smaller
///   one is seconds from now (10⁹ seconds is 31 years, no window is that long, and every epoch
///   since September 2001 is larger). Discord's `X-RateLimit-Reset-After` (seconds, fractional)
///   is preferred to `X-RateLimit-Reset` when both are given.
/// - `Retry-After` on a 429, 503 or 403: the server wants nothing before then, so the budget
///   counts as spent until it passes.
///
/// When several limits are given (several policies, or both forms), the binding one wins: the
/// fewest remaining, and of those the latest reset.
public struct RateLimitFields: Sendable, Equatable {
    /// The quota of the binding limit (`RateLimit-Limit`, or the policy's `q`), when given.
    public var limit: Int?
    /// Requests still allowed before the reset (`RateLimit-Remaining`, or `r`).
    public var remaining: Int?
    /// Seconds until the quota resets (`RateLimit-Reset`, or `t`).
    public var reset: TimeInterval?
    /// The draft policy that binds, when the limit came from the structured fields.
    public var policy: String?
    /// `Retry-After` of a 429 or 503, in seconds.
    public var retryAfter: TimeInterval?

    /// Fields with these values; `nil` for a field the response did not carry.
    public init(
        limit: Int? = nil, remaining: Int? = nil, reset: TimeInterval? = nil,
        policy: String? = nil, retryAfter: TimeInterval? = nil
    ) {
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
        self.policy = policy
        self.retryAfter = retryAfter
    }

    /// The fields of `response` (empty when it carries none).
    public init(response: HTTPURLResponse, now: Date = Date()) {
        self.init(
            header: { response.value(forHTTPHeaderField: $0) }, statusCode: response.statusCode, now: now,
            retryAfter: { response.retryAfterSeconds(now: now) })
    }

    /// The fields of the headers an `HTTPError` kept.
    public init(headers: HTTPHeaderFields, statusCode: Int, now: Date = Date()) {
        self.init(
            header: { headers[$0] }, statusCode: statusCode, now: now,
            retryAfter: { RetryAfter.seconds(in: headers, now: now) })
    }

    /// The fields given header lookup by name (case-insensitive is the caller's business).
    init(header: (String) -> String?, statusCode: Int, now: Date, retryAfter: () -> TimeInterval?) {
        var limits: [Limit] = []
        if let remaining = header("RateLimit-Remaining").flatMap(Self.headerInteger) {
            limits.append(
                Limit(
                    policy: nil, quota: header("RateLimit-Limit").flatMap(Self.headerInteger), remaining: remaining,
                    reset: header("RateLimit-Reset").flatMap(Self.headerSeconds)))
        }
        if let remaining = header("X-RateLimit-Remaining").flatMap(Self.headerInteger) {
            var reset = header("X-RateLimit-Reset-After").flatMap(Self.headerSeconds)
            if reset == nil, let value = header("X-RateLimit-Reset").flatMap(Self.headerSeconds) {
                reset = Self.secondsOrEpoch(
                    value, responseDate: header("Date").flatMap { HTTPDate.parse($0, now: now) }, now: now)
            }
            limits.append(
                Limit(
                    policy: header("X-RateLimit-Resource"),
                    quota: header("X-RateLimit-Limit").flatMap(Self.headerInteger),
                    remaining: remaining, reset: reset))
        }
        if let field = header("RateLimit") {
            let quotas = header("RateLimit-Policy").map(Self.policyQuotas) ?? [:]
            limits += Self.draftLimits(field, quotas: quotas)
        }
        if let binding = limits.min(by: { ($0.remaining, -($0.reset ?? 0)) < ($1.remaining, -($1.reset ?? 0)) }) {
            self.init(limit: binding.quota, remaining: binding.remaining, reset: binding.reset, policy: binding.policy)
        } else {
            self.init()
        }
        if statusCode == 429 || statusCode == 503 || statusCode == 403 {
            self.retryAfter = retryAfter()
        }
    }

    /// Whether the response said anything about its rate limit.
    public var isEmpty: Bool { remaining == nil && retryAfter == nil }

    private struct Limit {
        var policy: String?
        var quota: Int?
        var remaining: Int
        var reset: TimeInterval?
    }

    /// `RateLimit`: the current list form, else the older dictionary form; unreadable → none.
    private static func draftLimits(_ field: String, quotas: [String: Int]) -> [Limit] {
        var parser = StructuredFieldValueParser(Array(field.utf8))
        if let members = try? parser.parseListFieldValue() {
            return members.compactMap { member -> Limit? in
                guard case let .item(item) = member, let name = policyName(item.rfc9651BareItem),
                    let remaining = item.rfc9651Parameters["r"].flatMap(integer)
                else { return nil }
                return Limit(
                    policy: name, quota: quotas[name], remaining: max(0, remaining),
                    reset: item.rfc9651Parameters["t"].flatMap(seconds))
            }
        }
        var dictionaryParser = StructuredFieldValueParser(Array(field.utf8))
        guard let dictionary = try? dictionaryParser.parseDictionaryFieldValue() else { return [] }
        func value(_ key: String) -> RFC9651BareItem? {
            if case let .item(item)? = dictionary[key] { return item.rfc9651BareItem }
            return nil
        }
        guard let remaining = value("remaining").flatMap(integer) else { return [] }
        return [
            Limit(
                policy: nil, quota: value("limit").flatMap(integer), remaining: max(0, remaining),
                reset: value("reset").flatMap(seconds))
        ]
    }

    /// `RateLimit-Policy`: policy name → quota `q`.
    private static func policyQuotas(_ field: String) -> [String: Int] {
        var parser = StructuredFieldValueParser(Array(field.utf8))
        guard let members = try? parser.parseListFieldValue() else { return [:] }
        var quotas: [String: Int] = [:]
        for case let .item(item) in members {
            if let name = policyName(item.rfc9651BareItem), let quota = item.rfc9651Parameters["q"].flatMap(integer) {
                quotas[name] = quota
            }
        }
        return quotas
    }

    private static func policyName(_ item: RFC9651BareItem) -> String? {
        switch item {
        case let .string(name), let .token(name): name
        default: nil
        }
    }

    private static func integer(_ item: RFC9651BareItem) -> Int? {
        if case let .integer(value) = item { return Int(value) }
        return nil
    }

    private static func seconds(_ item: RFC9651BareItem) -> TimeInterval? {
        switch item {
        case let .integer(value) where value >= 0: TimeInterval(value)
        case let .decimal(value) where Double(value) >= 0: Double(value)
        default: nil
        }
    }

    /// Values this large are Unix epochs (any moment after 2001-09-09); smaller ones are seconds.
    static let epochThreshold: TimeInterval = 1_000_000_000

    /// `X-RateLimit-Reset` as seconds from the response: an epoch is measured from the
    /// response's `Date` (so a skewed local clock does not matter) or, without one, from `now`;
    /// an epoch already past means 0.
    static func secondsOrEpoch(_ value: TimeInterval, responseDate: Date?, now: Date) -> TimeInterval {
        guard value >= epochThreshold else { return value }
        return max(0, value - (responseDate ?? now).timeIntervalSince1970)
    }

    /// A plain header's non-negative integer (`RateLimit-Remaining: 4`).
    static func headerInteger(_ text: String) -> Int? {
        Int(text.trimmingCharacters(in: .whitespaces)).map { max(0, $0) }
    }

    /// A plain header's delta-seconds, fractional allowed (`RateLimit-Reset: 1`, `0.25`).
    private static func headerSeconds(_ text: String) -> TimeInterval? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }
}
