import UnderstudyJSON

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

    /// The journal's `,"idempotency":{…}` member, encoded once: a replay's note is made once and
    /// journaled with every replay (encoding it each time was ~700 instructions a replay).
    let json: [UInt8]

    init(key: String?, outcome: Outcome, stored: Bool? = nil) {
        self.key = key
        self.outcome = outcome
        self.stored = stored
        let out = JSONWriter(capacity: 64)
        out.key("idempotency")
        out.append(UInt8(ascii: "{"))
        out.key("key", first: true)
        out.optionalJSONString(key)
        out.key("outcome")
        out.appendJSONString(outcome.rawValue)
        if let stored {
            out.append(stored ? #","stored":true"# as StaticString : #","stored":false"# as StaticString)
        }
        out.append(UInt8(ascii: "}"))
        json = out.bytes
    }
}
