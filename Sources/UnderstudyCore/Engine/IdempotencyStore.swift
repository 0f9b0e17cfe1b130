import UnderstudyHTTP

/// One stub's idempotency keys in one world: each key's first request and the answer it got,
/// until the key's time to live passes on the world's clock. Created the first time a request
/// reaches the stub's idempotency, so a stub without `idempotency` carries only a nil reference.
final class IdempotencyStore {
    /// A key's first request and its answer. A class: a lookup hands out one reference, where a
    /// struct was copied out of the table, retaining and then releasing each of its fields.
    final class Entry {
        let fingerprint: RequestFingerprint
        /// The answer as the engine built it (templated values rendered): what a replay sends.
        /// `nil` when it is not kept (see ``IdempotencyStore/keeps(_:)``).
        let response: HTTPResponse?
        /// The response index the stub served, for the replay's journal line.
        let responseIndex: Int?
        /// Monotonic time the answer is due (arrival plus its delay): until then the key is in
        /// progress.
        let answeredAt: UInt64
        /// Monotonic time the key expires.
        let expiresAt: UInt64
        /// What every replay's journal line says of the key (`"idempotency":{"key":…,"outcome":"replay"}`),
        /// made once with the entry, so a replay allocates no note (two allocations a replay before,
        /// `scripts/bench --replay`). `nil` when the answer is not kept.
        let replayNotes: GuardNotes?
        /// How the kept answer's body is paced, for the replay's journal line (`stream`).
        let replayStream: ResponseStreaming.Kind?

        init(
            key: String, fingerprint: RequestFingerprint, response: HTTPResponse?, responseIndex: Int?,
            answeredAt: UInt64, expiresAt: UInt64
        ) {
            self.fingerprint = fingerprint
            self.response = response
            self.responseIndex = responseIndex
            self.answeredAt = answeredAt
            self.expiresAt = expiresAt
            self.replayNotes =
                response == nil ? nil : GuardNotes(idempotency: IdempotencyNote(key: key, outcome: .replay), retry: nil)
            self.replayStream = response?.streaming?.kind
        }

        /// Whether `request` (in `context`) is the key's first request again, as
        /// `fingerprint == RequestFingerprint(context)` says, without building its fingerprint when
        /// it sends no `Content-Type` (`sendsContentType`: its body is then compared byte for byte):
        /// what a replay checks. The fingerprint's fields are read in place: calling a method of the
        /// fingerprint copied it out of the entry first (~300 instructions a replay, `scripts/bench --replay`).
        func isSameRequest(_ request: HTTPRequest, _ context: MatchContext, sendsContentType: Bool) -> Bool {
            guard fingerprint.method == request.method, fingerprint.path == request.path else { return false }
            if !sendsContentType, case .bytes(let bytes) = fingerprint.body {
                return bytes == request.body
            }
            return fingerprint == RequestFingerprint(context)
        }
    }

    /// What a request's key finds.
    enum Lookup {
        /// Nothing live: the request is answered as the key's first.
        case first
        /// The same request, answered: replay the entry's response.
        case replay(HTTPResponse, Entry)
        /// Another request (method, path or body) used the key first.
        case mismatch(String)
        /// The key's first request is still being answered.
        case inProgress
    }

    /// `@exclusivity(unchecked)`, as the engine's state is: one thread, no overlapping access (the
    /// runtime's check cost a replay ~60 instructions).
    @exclusivity(unchecked) private var entries: [String: Entry] = [:]
    /// The entry last found or stored, and its key: a client retrying one request asks for the
    /// same key again and again, and comparing it with the last one (the same string, or a short
    /// `memcmp`) is cheaper than hashing it for the table (~350 instructions a replay,
    /// `scripts/bench --replay`). It may be an expired entry the sweep dropped: its time is
    /// checked as the table's would be, so it then finds nothing live, as the table does.
    @exclusivity(unchecked) private var lastKey: String?
    @exclusivity(unchecked) private var lastEntry: Entry?
    /// The key and `Content-Type` of the header blocks seen lately (see ``KeyHeaderReadings``).
    @exclusivity(unchecked) private var readings = KeyHeaderReadings()
    /// Entries stored since the last sweep of expired ones (a sweep is linear, so it waits for
    /// as many new entries as there were live ones).
    @exclusivity(unchecked) private var sinceSweep = 0

    /// Keys held, expired ones not yet swept included.
    var count: Int { entries.count }

    /// What `headers` say for the rule reading its key from `keyHeader`: the key and whether they
    /// send a `Content-Type`, remembered by the block's identity (see ``KeyHeaderReadings``).
    func reading(_ headers: HTTPHeaders, keyHeader: String) -> KeyHeaderReadings.Reading {
        readings.reading(headers, keyHeader: keyHeader)
    }

    /// What `key` finds for `request` (the one in `context`) at monotonic time `now`;
    /// `sendsContentType` says whether the request has a `Content-Type` field. The request's
    /// fingerprint is built only when it has to be (see ``Entry/isSameRequest(_:_:sendsContentType:)``).
    func lookup(
        _ key: String, _ request: HTTPRequest, _ context: MatchContext, sendsContentType: Bool, now: UInt64
    ) -> Lookup {
        guard let entry = entry(for: key), entry.expiresAt > now else { return .first }
        let answered = now >= entry.answeredAt
        // An answer that was not kept leaves the key free once it has gone out.
        if answered && entry.response == nil { return .first }
        guard entry.isSameRequest(request, context, sendsContentType: sendsContentType) else {
            return .mismatch(RequestFingerprint(context).difference(from: entry.fingerprint))
        }
        guard answered, let response = entry.response else { return .inProgress }
        return .replay(response, entry)
    }

    /// `key`'s entry, live or not: the last one found when `key` is the last key, else the table's.
    private func entry(for key: String) -> Entry? {
        if let lastEntry, lastKey == key { return lastEntry }
        guard let found = entries[key] else { return nil }
        lastKey = key
        lastEntry = found
        return found
    }

    /// Records `key`'s first request and its answer.
    func store(_ key: String, _ entry: Entry, now: UInt64) {
        sinceSweep += 1
        if sinceSweep > max(64, entries.count) {
            entries = entries.filter { $0.value.expiresAt > now }
            sinceSweep = 0
        }
        entries[key] = entry
        lastKey = key
        lastEntry = entry
    }

    /// Whether an answer is kept for replays: not when it says the request was not carried out
    /// (a fault, a 5xx, 401, 408, 409, 425 or 429) or comes from elsewhere (a proxy), so the
    /// client's retry with the same key is served afresh, as the payment APIs do for requests
    /// that never ran.
    static func keeps(_ response: HTTPResponse) -> Bool {
        guard response.fault == nil, response.proxy == nil else { return false }
        switch response.status {
        case 401, 408, 409, 425, 429: return false
        default: return response.status < 500
        }
    }
}

@available(*, unavailable)
extension IdempotencyStore: Sendable {}
