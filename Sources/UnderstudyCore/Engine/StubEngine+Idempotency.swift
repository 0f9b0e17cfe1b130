import UnderstudyHTTP

/// Serving a stub with `idempotency` (IETF draft "The Idempotency-Key HTTP Header Field",
/// draft-ietf-httpapi-idempotency-key-header-07): the key's first request is served as usual and
/// its answer kept; the same request again is replayed from the ``IdempotencyStore`` without the
/// stub's sequence, scenario or rate limit moving; another request with the key, a key still in
/// progress and a missing required key are refused with a problem body (RFC 9457).
extension StubEngine {
    /// The header a replayed answer carries, as Stripe and the payment APIs after it send it.
    static let replayedHeader = "Idempotent-Replayed"

    /// The answer of a guarded stub (see ``StubBox/guarded``): an expired token's 401, what the
    /// stub's idempotency makes of the request, or the stub's own answer when no guard gives one.
    /// Never inlined: other stubs never come here, so their path stays as it was. Not optional:
    /// an optional answer (136 bytes) was copied with `memcpy` on its way out, and unwrapped
    /// (~100 instructions of every request to a stub with `idempotency`, `scripts/bench --replay`).
    @inline(never)
    func guardedAnswer(_ winner: Int, _ context: MatchContext, now: UInt64) -> (HTTPResponse, JournalRecord) {
        // Fields are read through the box: a `let stub = box.stub` copy retained and released every
        // field of the stub (2,600 instructions a replay, `scripts/bench --replay`).
        let box = boxes[winner]
        if let lifetime = box.stub.tokenExpiresIn, let refusal = expiredToken(box.stub, lifetime, context) {
            return refusal
        }
        if box.earlyRetries != nil {
            return servedJudgingRetries(winner, box, context, now: now) {
                box.idempotent
                    ? serveIdempotently(winner, box, context, now: now)
                    : serveUnguarded(winner, box, context, now: now)
            }
        }
        guard box.idempotent else { return serveUnguarded(winner, box, context, now: now) }
        return serveIdempotently(winner, box, context, now: now)
    }

    /// Serves a stub with `idempotency` (its token, if checked, is valid).
    private func serveIdempotently(_ winner: Int, _ box: StubBox, _ context: MatchContext, now: UInt64) -> (
        HTTPResponse, JournalRecord
    ) {
        guard let rule = box.stub.idempotency else { return serveUnguarded(winner, box, context, now: now) }
        let store: IdempotencyStore
        if let existing = runtimes[winner].idempotency {
            store = existing
        } else {
            store = IdempotencyStore()
            runtimes[winner].idempotency = store
        }
        let request = context.request  // one getter call (across the module boundary) for three reads
        // The key as `headers[rule.header]` finds it (the first value), read once per header block.
        let reading = store.reading(request.headers, keyHeader: rule.header)
        guard let key = reading.key else {
            guard rule.required else { return serveUnguarded(winner, box, context, now: now) }
            return idempotencyProblem(
                400, title: "Idempotency key missing",
                detail: "This operation requires an idempotency key: send the \(rule.header) header with a "
                    + "unique value per logical request, the same on every retry.",
                key: nil, outcome: .missing, stub: box.stub, context)
        }
        switch store.lookup(key, request, context, sendsContentType: reading.sendsContentType, now: now) {
        case .first:
            let fingerprint = RequestFingerprint(context)
            var (response, record) = serveUnguarded(winner, box, context, now: now)
            let keeps = IdempotencyStore.keeps(response)
            var replay: HTTPResponse?
            if keeps {
                var kept = response
                kept.delayMs = 0
                kept.headers.append(name: Self.replayedHeader, value: "true")
                replay = kept
            }
            let delay = UInt64(max(0, response.delayMs) * 1_000_000)
            store.store(
                key,
                IdempotencyStore.Entry(
                    key: key, fingerprint: fingerprint, response: replay, responseIndex: record.responseIndex,
                    answeredAt: now &+ delay, expiresAt: now &+ rule.ttlNanoseconds),
                now: now)
            record.idempotency = IdempotencyNote(key: key, outcome: .first, stored: keeps)
            return (response, record)
        case .replay(let response, let entry):
            // Built whole, its note made once with the entry: a record built and then changed was
            // copied on its way out (~300 instructions a replay, `scripts/bench --replay`).
            return (
                response,
                JournalRecord(
                    request: request, matched: true, rateLimited: false, stubID: box.stub.id,
                    responseIndex: entry.responseIndex, scenario: nil, stream: entry.replayStream,
                    notes: entry.replayNotes)
            )
        case .mismatch(let why):
            return idempotencyProblem(
                rule.mismatchStatus, title: "Idempotency key reused for a different request",
                detail: "\(rule.header) \"\(key)\" cannot be reused: \(why). Send a new key for a new request.",
                key: key, outcome: .mismatch, stub: box.stub, context)
        case .inProgress:
            return idempotencyProblem(
                409, title: "Request with this idempotency key in progress",
                detail: "\(rule.header) \"\(key)\": the first request with this key is still being answered; "
                    + "retry after it completes.",
                key: key, outcome: .inProgress, stub: box.stub, context)
        }
    }

    /// A refusal as an RFC 9457 problem, naming the key (`idempotencyKey`).
    private func idempotencyProblem(
        _ status: Int, title: String, detail: String, key: String?, outcome: IdempotencyNote.Outcome, stub: Stub,
        _ context: MatchContext
    ) -> (HTTPResponse, JournalRecord) {
        var members = [
            JSONMember("type", "https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/"),
            JSONMember("title", .string(title)),
            JSONMember("status", JSONValue(status)),
            JSONMember("detail", .string(detail)),
        ]
        if let key { members.append(JSONMember("idempotencyKey", .string(key))) }
        let response = HTTPResponse(
            status: status, headers: ["Content-Type": "application/problem+json"],
            body: JSONValue.object(members).jsonBytes, stubID: stub.id)
        var record = JournalRecord(
            request: context.request, matched: true, rateLimited: false, stubID: stub.id, responseIndex: nil,
            scenario: nil)
        record.idempotency = IdempotencyNote(key: key, outcome: outcome)
        return (response, record)
    }

    /// A value's first and last bytes, read from its contiguous UTF-8 (`utf8.last` stepped a String
    /// index back: ~75 instructions a replay); nil when it is empty.
    private static func ends(_ value: String) -> (UInt8, UInt8)? {
        if let ends = value.utf8.withContiguousStorageIfAvailable({ $0.isEmpty ? nil : ($0[0], $0[$0.count - 1]) }) {
            return ends
        }
        guard let first = value.utf8.first, let last = value.utf8.last else { return nil }
        return (first, last)
    }

    /// The key in a header value: trimmed, and unquoted when written as the draft's structured
    /// string (`"8e03978e…"`); `nil` when empty.
    static func idempotencyKey(_ value: String) -> String? {
        // The usual key (a UUID, as sent) needs no trimming or unquoting: returned as it is, without
        // the Substring walk below (1,860 instructions a replay).
        if let (first, last) = ends(value), first != 0x20, first != 0x09, first != 0x22, last != 0x20, last != 0x09 {
            return value
        }
        var text = Substring(value)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        if text.count >= 2, text.first == "\"", text.last == "\"" {
            var unquoted = ""
            var escaped = false
            for character in text.dropFirst().dropLast() {
                if !escaped && character == "\\" {
                    escaped = true
                    continue
                }
                escaped = false
                unquoted.append(character)
            }
            return unquoted.isEmpty ? nil : unquoted
        }
        return text.isEmpty ? nil : String(text)
    }
}
