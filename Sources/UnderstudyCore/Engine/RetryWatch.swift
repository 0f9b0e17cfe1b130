import UnderstudyHTTP

/// For one stub, the wait its last answer to each client asked for: when that answer went out
/// and how long it asked the client to stay away, on the world's monotonic clock, with the
/// refusal itself for `earlyRetries: "refuse"` to send again. A client is its `User-Agent` (all
/// requests without one are one client), within one world.
final class RetryWatch {
    struct Pending {
        /// When the answer went out (its arrival plus its delay).
        let answeredAt: UInt64
        /// The wait it asked for.
        let askedNanoseconds: UInt64
        /// The answer, undelayed, to send an early retry again.
        let refusal: HTTPResponse

        /// When the client may come back.
        var notBefore: UInt64 { answeredAt &+ askedNanoseconds }
    }

    private var pending: [String: Pending] = [:]

    /// The client a request comes from.
    static func client(of request: HTTPRequest) -> String {
        request.headers["User-Agent"] ?? ""
    }

    /// The wait `client` was last asked for, if its last answer asked for one.
    func pending(for client: String) -> Pending? { pending[client] }

    /// Remembers the wait `client`'s latest answer asked for (`nil`: none).
    func record(_ wait: Pending?, for client: String) {
        pending[client] = wait
    }

    /// The wait `response` asks for, in nanoseconds, when the world's wall clock reads
    /// `nowSeconds`: its `Retry-After` (seconds or an HTTP date), else, on a rate-limit refusal (a
    /// 429, or `X-RateLimit-Remaining: 0`), its `X-RateLimit-Reset` (seconds, or an epoch when it
    /// is past 1e9). A fault sends no headers, so it asks for nothing.
    static func askedWait(_ response: HTTPResponse, nowSeconds: Double) -> UInt64? {
        guard response.fault == nil else { return nil }
        var seconds: Double?
        if let value = response.headers["Retry-After"] {
            let text = trimmed(value)
            if let delta = Double(text) {
                seconds = delta
            } else if let date = parseIMFFixdate(text) {
                seconds = date - nowSeconds
            }
        } else if response.status == 429 || response.headers["X-RateLimit-Remaining"] == "0",
            let value = response.headers["X-RateLimit-Reset"],
            let number = Double(trimmed(value))
        {
            seconds = number > 1e9 ? number - nowSeconds : number
        }
        guard let seconds, seconds.isFinite else { return nil }
        return UInt64((max(0, seconds) * 1_000_000_000).rounded())
    }

    private static func trimmed(_ value: String) -> String {
        String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` as seconds since 1970 (RFC 9110's IMF-fixdate only).
    static func parseIMFFixdate(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]) else {
            return nil
        }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let monthIndex = months.firstIndex(of: String(parts[2])) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm).
        let month = monthIndex + 1
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2])
    }
}

@available(*, unavailable)
extension RetryWatch: Sendable {}
