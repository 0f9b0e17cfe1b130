/// The wait a 429 or 503 asked for, as `HTTPClientError.tooManyRequests(retryAfter:)` and
/// `HTTPServerError.serviceUnavailable(retryAfter:)` carry it, with the header fields of the
/// response that asked for it; and the parser of `Retry-After` values.
///
/// A 429 or 503 carries `.some(RetryAfter)` exactly when it asked for a wait, so the enum-case
/// patterns read as the words say: `if case HTTPClientError.tooManyRequests(.some(let retryAfter)) = error`
/// matches a 429 that named a wait, `case let .failure(HTTPServerError.serviceUnavailable(retryAfter?))`
/// a 503 that did, and `guard case .tooManyRequests(let retryAfter) = error` binds an optional wait.
/// The wait is the response's `Retry-After` or, when a 429 has none, the reset its rate-limit fields
/// announce (`source` says which); it is the value `rateLimitWait` reports for that response.
///
/// Equal to another `RetryAfter` (and so to a number literal: `XCTAssertEqual(retryAfter, 1.5)`)
/// when the seconds are equal, whatever the headers; ordered by the seconds.
public struct RetryAfter: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral
{
    /// Where a wait came from.
    public enum Source: Sendable, Hashable {
        /// The response's `Retry-After` field, or a wait made in code.
        case retryAfterField
        /// The reset a 429's rate-limit fields announced (`RateLimit-Reset`, the draft's `t`,
        /// `X-RateLimit-Reset-After`, `X-RateLimit-Reset`), as it sent no `Retry-After`.
        case rateLimitReset
    }

    /// The wait, in seconds from when the response was sent (an HTTP-date already resolved).
    public let seconds: TimeInterval
    /// The header fields of the response that asked for the wait (empty for a wait made in code).
    public let headers: HTTPHeaderFields
    /// Whether the wait is the response's `Retry-After` or its rate-limit fields' reset.
    public let source: Source

    /// A wait of `seconds`, with the header fields of the response that asked for it.
    public init(
        seconds: TimeInterval, headers: HTTPHeaderFields = HTTPHeaderFields(), source: Source = .retryAfterField
    ) {
        self.seconds = seconds
        self.headers = headers
        self.source = source
    }

    /// A wait of `seconds`: `.tooManyRequests(retryAfter: RetryAfter(wait))` for a `TimeInterval`.
    public init(_ seconds: TimeInterval) {
        self.init(seconds: seconds)
    }

    /// A wait of `duration`, in any unit.
    public init(_ duration: Measurement<UnitDuration>) {
        self.init(seconds: duration.converted(to: .seconds).value)
    }

    /// `.tooManyRequests(retryAfter: 1.5)`.
    public init(floatLiteral value: Double) {
        self.init(seconds: value)
    }

    /// `.tooManyRequests(retryAfter: 2)`.
    public init(integerLiteral value: Int) {
        self.init(seconds: TimeInterval(value))
    }

    /// The wait as a `Measurement`.
    public var duration: Measurement<UnitDuration> {
        Measurement(value: seconds, unit: .seconds)
    }

    /// The wait in `unit`: `retryAfter.converted(to: .milliseconds).value`.
    public func converted(to unit: UnitDuration) -> Measurement<UnitDuration> {
        duration.converted(to: unit)
    }

    public var description: String { "\(seconds)s" }

    /// Equal seconds; the headers and the source are details, as an `HTTPError`'s are.
    public static func == (lhs: RetryAfter, rhs: RetryAfter) -> Bool {
        lhs.seconds == rhs.seconds
    }

    public static func < (lhs: RetryAfter, rhs: RetryAfter) -> Bool {
        lhs.seconds < rhs.seconds
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seconds)
    }

    // MARK: Reading `Retry-After`

    /// The seconds to wait that `value` asks for, or `nil` when it is not a valid `Retry-After`.
    ///
    /// - delta-seconds: `120`, and the fractional form some servers send (`1.5`, `0.237`).
    /// - HTTP-date, in any of its three forms: the wait is measured from `responseDate` (the
    ///   response's own `Date` header, so a skewed local clock does not matter) or, without one,
    ///   from `now`. A date already past means "retry now" (0).
    /// - Anything else (negative, signed, exponent, empty, unparseable) means absent: `nil`.
    public static func seconds(from value: String, responseDate: Date? = nil, now: Date = Date()) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let delta = deltaSeconds(text) {
            return delta
        }
        guard let date = HTTPDate.parse(text, now: now) else { return nil }
        return max(0, date.timeIntervalSince(responseDate ?? now))
    }

    /// `1*DIGIT [ "." 1*DIGIT ]` — strictly, so `1e3`, `+5`, `inf` or `0x10` are not numbers here.
    private static func deltaSeconds(_ text: String) -> TimeInterval? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit) else { return nil }
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCIIDigit) else { return nil }
        }
        guard let seconds = Double(text), seconds.isFinite else { return nil }
        return seconds
    }

    /// The wait the `Retry-After` field among `headers` asks for, resolved against their `Date`
    /// (or `now`); `nil` when absent or unreadable.
    static func seconds(in headers: HTTPHeaderFields, now: Date) -> TimeInterval? {
        guard let value = headers["Retry-After"] else { return nil }
        let responseDate = headers["Date"].flatMap { HTTPDate.parse($0, now: now) }
        return seconds(from: value, responseDate: responseDate, now: now)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
