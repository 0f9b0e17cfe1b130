import Foundation

/// One request the daemon received, as its journal recorded it, with what was sent back.
///
/// An entry is written when the request's fate is known: as its answer is sent (before any byte
/// of it), when its fault is carried out, or when its client is seen to leave before a delayed
/// answer. ``status`` is the status line actually sent, so it is nil for a fault that sent none
/// and for a client that left (``outcome`` says which).
public struct RecordedRequest: Codable, Sendable, Equatable {
    /// 1, 2, … in the order entries were written: arrival order, except that a delayed answer
    /// is journaled when it goes out.
    public var seq: Int
    /// Wall-clock arrival time, ISO 8601 UTC with milliseconds.
    public var time: String
    /// Monotonic milliseconds since the daemon's engine started (sub-millisecond, survives
    /// reset): subtract two of them for the gap between requests on the server's clock.
    public var elapsedMs: Double
    /// The request method, as sent (`GET`, `POST`, …).
    public var method: String
    /// The path as sent, still percent-encoded.
    public var path: String
    /// The raw query string, or `nil` when there was no `?`.
    public var query: String?
    /// Lower-cased header names → every value, in order.
    public var headers: [String: [String]]
    /// `"HTTP/2"` for a request that came over HTTP/2; nil for HTTP/1.1, which the journal leaves
    /// unsaid so its lines stay as they were (``httpVersion`` names both).
    public var `protocol`: String?
    /// The HTTP/2 stream the request came on; nil over HTTP/1.1.
    public var streamId: Int?
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
    /// The status line sent, or nil when none was: a fault before the head (every fault but
    /// `close-after-headers`), a client that left before its answer, or a shutdown.
    public var status: Int?
    /// The fault carried out instead of a normal response (`connection-reset`…).
    public var fault: String?
    /// The HTTP/2 error code an `rst-stream*` or `goaway*` fault sent over HTTP/2 (`REFUSED_STREAM`…);
    /// nil otherwise, and over HTTP/1.1, where none is sent.
    public var errorCode: String?
    /// The last-stream id a `goaway*` fault's `GOAWAY` named.
    public var lastStreamId: Int?
    /// The scenario transition this request caused.
    public var scenario: ScenarioTransition?
    /// Whether the stub's rate limit refused it (429).
    public var rateLimited: Bool
    /// The id of the session that received it; `nil` on the daemon's main port.
    public var session: String?
    /// How the request ended on the wire (nil only from a daemon that predates the field).
    public var outcome: Outcome?
    /// The delay the stub asked for before answering, in milliseconds (0 when none).
    public var delayMs: Double?
    /// When the outcome happened (the answer sent, the fault carried out, the client seen gone),
    /// on the same clock as ``elapsedMs``: `outcomeMs - elapsedMs` is how long the request was held.
    public var outcomeMs: Double?
    /// What was sent back: nil when no status line was sent.
    public var response: RecordedResponse?
    /// Why the transport refused the request, when ``outcome`` is ``Outcome/refused``.
    public var reason: String?

    /// How a journaled request ended on the wire.
    public enum Outcome: String, Codable, Sendable, Equatable {
        /// The response was handed to the connection in full.
        case answered
        /// A fault was carried out (``RecordedRequest/fault``).
        case fault
        /// The client closed the connection before its (delayed) answer; nothing was sent.
        case clientGone = "client-gone"
        /// The daemon stopped before the (delayed) answer was due; nothing was sent.
        case shutdown
        /// The daemon's transport refused the request (malformed, or over a limit) and answered
        /// with a 4xx/5xx saying why (``RecordedRequest/reason``).
        case refused
        /// A webhook attempt got no answer (``RecordedRequest/outbound`` says why).
        case failed
    }

    /// For a webhook attempt the daemon made (docs/webhooks.md), which delivery and attempt it
    /// was and how it failed; nil for every request the daemon received.
    public var outbound: Outbound?
    /// What the stub's idempotency made of the request's key; nil for stubs without `idempotency`
    /// and requests to them without a key (docs/stub-format.md, idempotency keys).
    public var idempotency: Idempotency?
    /// Whether the request waited what the previous answer to the same client and stub asked for
    /// (`Retry-After`, a refusal's `X-RateLimit-Reset`); nil when no wait was asked.
    public var retry: RetryVerdict?

    /// The journal's `idempotency`: the key as read and what it did.
    public struct Idempotency: Codable, Sendable, Equatable {
        /// The key (nil when a required key was missing).
        public var key: String?
        /// `first`, `replay`, `mismatch`, `in-progress` or `missing`.
        public var outcome: String
        /// For a first request: whether its answer was kept for replays.
        public var stored: Bool?
    }

    /// The journal's `retry`: the wait asked and the wait taken, on the world's clock.
    public struct RetryVerdict: Codable, Sendable, Equatable {
        /// The wait the previous answer asked for, in milliseconds.
        public var askedMs: Double
        /// How long after that answer the request came, in milliseconds.
        public var waitedMs: Double
        /// `on-time`, `early` (served anyway) or `refused` (the refusal again, `earlyRetries: "refuse"`).
        public var verdict: String
        /// How much sooner than asked it came; nil when on time.
        public var earlyByMs: Double?

        /// Whether the request came before the wait was over.
        public var isEarly: Bool { verdict != "on-time" }
    }

    /// A webhook attempt, as the journal's `outbound` records it.
    public struct Outbound: Codable, Sendable, Equatable {
        /// The delivery (`wh_1`), the same on every attempt.
        public var delivery: String
        /// 1 for the first attempt, 2 for the first retry, …
        public var attempt: Int
        /// The event's id, the same on every attempt.
        public var eventId: String
        /// Where it was sent.
        public var url: String
        /// Milliseconds the attempt took.
        public var ms: Double
        /// Why no answer came (`connection-refused`, `timeout`, …); nil when one did.
        public var error: String?
        /// The client's own words for the failure.
        public var reason: String?
    }

    /// The protocol the request came over: `"HTTP/2"` or `"HTTP/1.1"`.
    public var httpVersion: String { self.protocol ?? "HTTP/1.1" }

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
