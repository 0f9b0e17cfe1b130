#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyHTTP

/// The rate-limit headers for one decision, in the rule's dialect. A header the response already
/// sets is left as the stub wrote it.
///
/// The forms follow each API's public documentation:
/// - `ietf`: `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (delta-seconds), as in
///   draft-ietf-httpapi-ratelimit-headers up to -06.
/// - `ietf-draft`: `RateLimit-Policy: "default";q=10;w=1` and `RateLimit: "default";r=4;t=1`
///   (draft-ietf-httpapi-ratelimit-headers-10, §3 and §4: `w` and `t` are whole seconds, so `w`
///   is left out for a window that is not, and `t` is rounded up).
/// - `github`: `X-RateLimit-Limit`, `-Remaining`, `-Used`, `-Reset` (UTC epoch seconds) and
///   `-Resource` (docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api).
/// - `x-ratelimit`: `X-RateLimit-Limit`, `-Remaining`, `-Reset` as seconds from now.
struct RateLimitHeaders {
    var rule: RateLimitRule
    var decision: RateLimitState.Decision

    /// `reset` as the whole seconds every dialect writes: rounded up, so a client that waits
    /// that long is never early.
    private var resetSeconds: Int { max(0, Int((decision.reset - 1e-9).rounded(.up))) }

    /// - Parameter now: the engine clock's wall time, read only by dialects that write a date.
    func add(to headers: inout HTTPHeaders, now: () -> Date) {
        switch rule.headers {
        case .ietf:
            add("RateLimit-Limit", String(rule.limit), to: &headers)
            add("RateLimit-Remaining", String(decision.remaining), to: &headers)
            add("RateLimit-Reset", String(resetSeconds), to: &headers)
        case .ietfDraft:
            let name = Self.structuredString(rule.headerName)
            let window = rule.window == rule.window.rounded() && rule.window >= 1 ? ";w=\(Int(rule.window))" : ""
            add("RateLimit-Policy", "\(name);q=\(rule.limit)\(window)", to: &headers)
            add("RateLimit", "\(name);r=\(decision.remaining);t=\(resetSeconds)", to: &headers)
        case .github:
            add("X-RateLimit-Limit", String(rule.limit), to: &headers)
            add("X-RateLimit-Remaining", String(decision.remaining), to: &headers)
            add("X-RateLimit-Used", String(max(0, rule.limit - decision.remaining)), to: &headers)
            // The epoch of the reset, rounded up: never earlier than the moment the limit is whole.
            let resetAt = now().timeIntervalSince1970 + max(0, decision.reset)
            add("X-RateLimit-Reset", String(Int64((resetAt - 1e-9).rounded(.up))), to: &headers)
            add("X-RateLimit-Resource", rule.headerName, to: &headers)
        case .xRateLimit:
            add("X-RateLimit-Limit", String(rule.limit), to: &headers)
            add("X-RateLimit-Remaining", String(decision.remaining), to: &headers)
            add("X-RateLimit-Reset", String(resetSeconds), to: &headers)
        case .none:
            break
        }
    }

    private func add(_ name: String, _ value: String, to headers: inout HTTPHeaders) {
        if !headers.contains(name) { headers.append(name: name, value: value) }
    }

    /// An RFC 9651 sf-string: quoted, with `\` and `"` escaped (the loader allows only printable ASCII).
    static func structuredString(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        out.append("\"")
        return out
    }
}
