/// Whether a request came back before the wait the previous answer to the same client and stub
/// asked for (`Retry-After`, or a refusal's `X-RateLimit-Reset`) had passed, on the world's clock,
/// for its journal line (`"retry"`). Only requests after such an answer carry one.
final class RetryVerdict: Sendable {
    /// What the request was judged to be.
    enum Kind: String, Sendable {
        /// It waited at least as long as asked.
        case onTime = "on-time"
        /// It came early and was served anyway (`earlyRetries: "observe"`).
        case early
        /// It came early and got the previous refusal again (`earlyRetries: "refuse"`).
        case refused
    }

    /// The wait the previous answer asked for, in milliseconds.
    let askedMs: Double
    /// How long after that answer went out the request came, in milliseconds.
    let waitedMs: Double
    let kind: Kind

    init(askedMs: Double, waitedMs: Double, kind: Kind) {
        // Microseconds are as fine as the journal's other times go.
        self.askedMs = (askedMs * 1000).rounded() / 1000
        self.waitedMs = (waitedMs * 1000).rounded() / 1000
        self.kind = kind
    }

    /// How much sooner than asked the request came (0 when on time).
    var earlyByMs: Double { max(0, askedMs - waitedMs) }
}

/// What a guarded stub's guards made of a request (``StubBox/guarded``): its idempotency key's
/// outcome and its retry verdict. One reference in ``JournalRecord``, nil for ordinary requests,
/// so the record stays within its 128 bytes.
final class GuardNotes: Sendable {
    let idempotency: IdempotencyNote?
    let retry: RetryVerdict?

    init(idempotency: IdempotencyNote?, retry: RetryVerdict?) {
        self.idempotency = idempotency
        self.retry = retry
    }
}
