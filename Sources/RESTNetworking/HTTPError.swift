/// An HTTP response whose status code is an error (4xx or 5xx): `HTTPClientError` or `HTTPServerError`.
///
/// **Equality.** Two `HTTPClientError`s (or two `HTTPServerError`s) are equal when their status
/// codes are: the status is the error's identity, and the payload its case carries (the headers,
/// the wait) is detail. So `.tooManyRequests()` equals a 429 that came with `Retry-After: 2`, and
/// `.forbidden` equals a 403 whatever its headers said; `tryCatch(HTTPClientError.tooManyRequests()) { ... }`
/// catches every 429. Read the details through `retryAfter`, `headers` and `isRateLimited` when
/// they matter, or bind them with a case pattern. `Hashable` agrees: errors hash by status code.
public protocol HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response's status code.
    var statusCode: Int { get }
    /// The wait the server asked for with `Retry-After` (in seconds) on a 429, 503 or 403, if any.
    var retryAfter: TimeInterval? { get }
    /// The response's header fields (empty for an error made in code rather than from a response,
    /// and for a 429 or 503 that asked for no wait).
    var headers: HTTPHeaderFields { get }
}

extension HTTPError {
    /// Equal status codes; the payload is not compared. (A protocol extension's `==` is used in
    /// preference to a synthesized one, so the types get this, not case-and-payload equality.)
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.statusCode == rhs.statusCode
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(statusCode)
    }

    /// `HTTP 429 (too many requests) (Retry-After 2.0s)`, or the rate-limit reset a 429 asked for.
    var httpErrorDescription: String {
        let status = "HTTP \(statusCode) (\(HTTPURLResponse.localizedString(forStatusCode: statusCode)))"
        if let retryAfter {
            return "\(status) (Retry-After \(retryAfter)s)"
        }
        if statusCode == 429, let reset = RateLimitFields(headers: headers, statusCode: statusCode).reset {
            return "\(status) (rate-limit reset in \(reset)s)"
        }
        return status
    }
}

extension RetryAfter {
    /// The payload of a 429 or 503 (`statusCode`): the wait its `Retry-After` asked for
    /// (`retryAfter`, or else read from `headers`); for a 429 without one, the reset its rate-limit
    /// fields announce, which `rateLimitWait` would wait for; `nil` when it asked for neither.
    init?(askedBy statusCode: Int, retryAfter: TimeInterval?, headers: HTTPHeaderFields, now: Date) {
        if let seconds = retryAfter ?? RetryAfter.seconds(in: headers, now: now) {
            self.init(seconds: seconds, headers: headers, source: .retryAfterField)
        } else if statusCode == 429,
            let reset = RateLimitFields(headers: headers, statusCode: statusCode, now: now).reset
        {
            self.init(seconds: reset, headers: headers, source: .rateLimitReset)
        } else {
            return nil
        }
    }

    /// `seconds` when they are the response's `Retry-After` (what `HTTPError.retryAfter` reports).
    var retryAfterFieldSeconds: TimeInterval? {
        source == .retryAfterField ? seconds : nil
    }
}

extension HTTPHeaderFields {
    /// These fields, with a `Retry-After` of `seconds` when they carry no readable one: how a 403
    /// made in code with a wait keeps it, as its only payload is its headers.
    func keepingRetryAfter(_ seconds: TimeInterval?, now: Date) -> HTTPHeaderFields {
        guard let seconds, seconds.isFinite, seconds >= 0, RetryAfter.seconds(in: self, now: now) == nil else {
            return self
        }
        var fields = all
        // delta-seconds admits no exponent, so write the digits out (to the microsecond).
        var text = String(format: "%.6f", seconds)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        fields["retry-after"] = text
        return HTTPHeaderFields(fields)
    }
}
