import Foundation

/// One request the daemon received, as its journal recorded it.
public struct RecordedRequest: Codable, Sendable, Equatable {
    /// 1, 2, … in arrival order.
    public var seq: Int
    /// Wall-clock arrival time, ISO 8601 UTC with milliseconds.
    public var time: String
    /// Monotonic milliseconds since the daemon's engine started (sub-millisecond, survives
    /// reset): subtract two of them for the gap between requests on the server's clock.
    public var elapsedMs: Double
    public var method: String
    /// The path as sent, still percent-encoded.
    public var path: String
    /// The raw query string, or `nil` when there was no `?`.
    public var query: String?
    /// Lower-cased header names → every value, in order.
    public var headers: [String: [String]]
    /// The body as text (`""` when empty); `nil` when it was not UTF-8 (see `bodyBase64`).
    public var body: String?
    /// The body, base64-encoded, when it was not UTF-8.
    public var bodyBase64: String?
    /// Whether a stub answered.
    public var matched: Bool
    /// The id of the stub that answered.
    public var stub: String?
    /// Which response of the stub's sequence was served.
    public var responseIndex: Int?
    /// The status sent (also for faults and rejected requests).
    public var status: Int
    /// The fault carried out instead of a normal response (`connection-reset`…).
    public var fault: String?
    /// The scenario transition this request caused.
    public var scenario: ScenarioTransition?
    /// Whether the stub's rate limit refused it (429).
    public var rateLimited: Bool
    /// The id of the session that received it; `nil` on the daemon's main port.
    public var session: String?

    /// The first value of header `name` (any case).
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]?.first
    }

    /// The body bytes, whichever way they were recorded.
    public var bodyData: Data {
        if let bodyBase64, let data = Data(base64Encoded: bodyBase64) { return data }
        return Data((body ?? "").utf8)
    }

    /// `time` as a `Date` (millisecond precision), or `nil` if unreadable.
    public var date: Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: time)
    }
}
