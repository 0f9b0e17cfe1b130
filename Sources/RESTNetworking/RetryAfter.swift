/// Reads a `Retry-After` header value (RFC 9110 §10.2.3) as a number of seconds to wait.
public enum RetryAfter {
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
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
