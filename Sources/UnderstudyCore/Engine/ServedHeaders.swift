#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyHTTP

/// The header fields a stub's answers go out with: the one definition the engine serves from and
/// `check --openapi` checks against, so a stub key that adds a header (`retryAfter`, `rateLimit`,
/// `json`'s `Content-Type`) is credited with it rather than reported missing.
public enum ServedHeaders {
    /// The fields the transport adds to every answer that lacks them (`Connection+Reply.swift`
    /// for HTTP/1.1, `HTTP2Stream.swift` for HTTP/2): `Date` always.
    public static let addedByTransport = ["Date"]

    /// The fields the transport adds to an answer that carries a whole body and lacks them:
    /// `Content-Length` (not on 1xx, 204 or 304, RFC 9110 §8.6, nor on a paced body, which is chunked).
    static func framing(status: Int, paced: Bool) -> [String] {
        paced || status < 200 || status == 204 || status == 304 ? [] : ["Content-Length"]
    }

    /// The header fields response `index` of `stub` is sent with when it answers: its own (with the
    /// `Content-Type` a `json` body implies), `Retry-After` from `retryAfter`, the `rateLimit`
    /// dialect's fields for an admitted request, and the transport's `Date` and `Content-Length`.
    /// Values that depend on time or on the limit's state are those of the first request at `now`.
    public static func answer(of stub: Stub, response index: Int, now: Date = Date()) -> HTTPHeaders {
        let response = stub.responses[index]
        var headers = response.headers
        addRetryAfter(response.retryAfter, to: &headers, sentAt: now.timeIntervalSince1970 + response.delayMs / 1000)
        if let rule = stub.rateLimit {
            let first = RateLimitState.Decision(
                allowed: true, remaining: max(0, rule.limit - 1), retryAfter: 0, reset: rule.window)
            RateLimitHeaders(rule: rule, decision: first).add(to: &headers, now: { now })
        }
        addTransportFields(to: &headers, status: response.status, paced: response.streaming != nil, now: now)
        return headers
    }

    /// The answer a request over `stub`'s rate limit gets (`nil` without a `rateLimit`): its status,
    /// header fields (the transport's included) and body, as when the limit has just been used up.
    public static func refusal(of stub: Stub, now: Date = Date()) -> HTTPResponse? {
        guard let rule = stub.rateLimit else { return nil }
        let refused = RateLimitState.Decision(allowed: false, remaining: 0, retryAfter: rule.window, reset: rule.window)
        var response = refusal(stub, rule, refused, now: now)
        addTransportFields(to: &response.headers, status: response.status, paced: false, now: now)
        return response
    }

    /// The refusal of a request over `rule`'s limit, as ``StubEngine`` sends it.
    static func refusal(_ stub: Stub, _ rule: RateLimitRule, _ decision: RateLimitState.Decision, now: Date)
        -> HTTPResponse
    {
        var headers = HTTPHeaders()
        headers.append(name: "Content-Type", value: rule.refusalContentType ?? "text/plain; charset=utf-8")
        let retryAfter: String?
        switch rule.retryAfter {
        case .seconds:
            retryAfter = String(max(1, Int((decision.retryAfter - 1e-9).rounded(.up))))
        case .fractional:
            retryAfter = TimeFormatting.fractionalSeconds(decision.retryAfter)
        case .httpDate:
            let at = now.timeIntervalSince1970 + decision.retryAfter
            retryAfter = TimeFormatting.imfFixdate(Int64(at.rounded(.up)))
        case .none:
            retryAfter = nil
        }
        if let retryAfter { headers.append(name: "Retry-After", value: retryAfter) }
        RateLimitHeaders(rule: rule, decision: decision).add(to: &headers, now: { now })
        let body =
            rule.refusalBody
            ?? Array(
                ("Rate limit exceeded for stub \(stub.id): \(rule.limit) requests per "
                    + "\(StubEngine.formatSeconds(rule.window)) s; retry after \(retryAfter ?? "the reset")\n").utf8)
        return HTTPResponse(status: rule.status, headers: headers, body: body, stubID: stub.id)
    }

    /// Adds the `Retry-After` a response's `retryAfter` key asks for; `sentAt` is the wall time
    /// (seconds since 1970) the answer leaves, after its delay.
    static func addRetryAfter(_ setting: RetryAfterSetting?, to headers: inout HTTPHeaders, sentAt: Double) {
        switch setting {
        case .seconds(let text)?:
            headers.append(name: "Retry-After", value: text)
        case .httpDateIn(let seconds)?:
            headers.append(
                name: "Retry-After", value: TimeFormatting.imfFixdate(Int64((sentAt + seconds).rounded(.up))))
        case nil:
            break
        }
    }

    private static func addTransportFields(to headers: inout HTTPHeaders, status: Int, paced: Bool, now: Date) {
        for name in addedByTransport + framing(status: status, paced: paced) where !headers.contains(name) {
            // `Content-Length`'s value stands for the body's length, which the check does not read.
            let value = name == "Date" ? TimeFormatting.imfFixdate(Int64(now.timeIntervalSince1970)) : "0"
            headers.append(name: name, value: value)
        }
    }
}
