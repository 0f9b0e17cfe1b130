/// What a request's idempotency key did, for its journal line (`"idempotency"`): the key and
/// whether the request was the key's first, a replay, a mismatch, in progress or missing its key.
/// A class, so a journal record without one carries a nil reference only.
final class IdempotencyNote: Sendable {
    /// How the key was treated.
    enum Outcome: String, Sendable {
        /// The key's first request (or the first after the key expired or its answer was not kept).
        case first
        /// The same key and request again: the stored answer, replayed.
        case replay
        /// The same key with another method, path or body: refused.
        case mismatch
        /// The key's first request was still being answered: refused with 409.
        case inProgress = "in-progress"
        /// No key where the stub requires one: refused with 400.
        case missing
    }

    /// The key as sent (`nil` when missing).
    let key: String?
    let outcome: Outcome
    /// For a first request: whether its answer was kept for replays.
    let stored: Bool?

    init(key: String?, outcome: Outcome, stored: Bool? = nil) {
        self.key = key
        self.outcome = outcome
        self.stored = stored
    }
}
