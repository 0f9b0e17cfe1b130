#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyHTTP

extension JournalEntry {
    /// Encodes an entry as one JSON Lines line (newline included) in the documented field order:
    /// `{"seq","session"?,"scheme"?,"protocol"?,"streamId"?,"time","elapsedMs","method","path","query","headers","body"|"bodyBase64",
    /// "matched","stub","responseIndex","status","fault","errorCode"?,"lastStreamId"?,"scenario","rateLimited",
    /// "outcome","delayMs","outcomeMs","response","stream"?,"proxied"?,"idempotency"?}`.
    ///
    /// `timePrefix` is the arrival timestamp up to and including the seconds' `.`; the
    /// milliseconds and the elapsed times are written as digits straight into the buffer.
    /// `buffer` is scratch space, reused across calls; the line is returned as an array of
    /// exactly its size, in `spare`'s storage when that fits (see
    /// ``JSONWriter/bytes(reusing:)``). `headerCache` supplies the request headers' JSON when they
    /// repeat (``JournalHeaderCache``). `session` is the id of the session whose engine
    /// journals the entry (absent on the main port). `reason` is the status line's phrase when it
    /// was not the standard one (`response.reason`).
    static func encode(
        seq: Int, session: String? = nil, timePrefix: String, milliseconds: Int, record: JournalRecord,
        delivery: Delivery, reason: String? = nil, outcomeElapsed: UInt64, bodyLimit: Int, into buffer: JSONWriter,
        headerCache: JournalHeaderCache? = nil, reusing spare: consuming [UInt8] = []
    ) -> [UInt8] {
        let request = record.request
        let out = buffer
        out.reset()
        // Keys go in as whole fragments with their punctuation (`,"method":`): one copy each.
        out.append(#"{"seq":"# as StaticString)
        out.int(seq)
        if let session {
            out.append(#","session":"# as StaticString)
            out.appendJSONString(session)
        }
        // Only TLS requests carry a scheme, so plain-HTTP lines stay as they were ("http" when absent).
        if request.isSecure { out.append(#","scheme":"https""# as StaticString) }
        // Likewise only HTTP/2 requests carry a protocol (HTTP/1.1 when absent) and their stream.
        if request.streamID != 0 {
            out.append(#","protocol":"HTTP/2","streamId":"# as StaticString)
            out.int(Int(request.streamID))
        }
        out.append(#","time":""# as StaticString)
        out.append(timePrefix)
        out.threeDigits(milliseconds, padded: true)
        out.append(#"Z""# as StaticString)
        if let wallTime = record.wallTime {
            out.append(#","wallTime":"# as StaticString)
            out.appendJSONString(wallTime)
        }
        out.append(#","elapsedMs":"# as StaticString)
        elapsed(record.arrivalElapsed, into: out)
        out.append(#","method":"# as StaticString)
        out.appendJSONString(request.method)
        out.append(#","path":"# as StaticString)
        out.appendJSONString(request.path)
        out.append(#","query":"# as StaticString)
        out.optionalJSONString(request.query)
        out.append(#","headers":"# as StaticString)
        if let received = request.receivedHeaders {
            // The fields as they came (HTTP/2's split `cookie` fields), not the joined view matching used.
            encodeHeaders(received, into: out)
        } else if let headerCache {
            headerCache.append(request.headers, into: out)
        } else {
            encodeHeaders(request.headers, into: out)
        }
        encodeBody(request.body, into: out)
        out.append(
            record.matched ? #","matched":true,"stub":"# as StaticString : #","matched":false,"stub":"# as StaticString)
        out.optionalJSONString(record.stubID)
        out.append(#","responseIndex":"# as StaticString)
        if let index = record.responseIndex { out.int(index) } else { out.append("null" as StaticString) }
        out.append(#","status":"# as StaticString)
        if let status = delivery.status { out.threeDigits(status) } else { out.append("null" as StaticString) }
        out.append(#","fault":"# as StaticString)
        out.optionalJSONString(delivery.fault?.rawValue)
        if let frame = delivery.frame { appendFrame(frame, into: out) }
        out.append(#","scenario":"# as StaticString)
        if let move = record.scenario {
            out.append(UInt8(ascii: "{"))
            out.key("name", first: true)
            out.appendJSONString(move.name)
            out.key("from")
            out.appendJSONString(move.from)
            out.key("to")
            out.appendJSONString(move.to)
            out.append(UInt8(ascii: "}"))
        } else {
            out.append("null" as StaticString)
        }
        out.append(
            record.rateLimited ? #","rateLimited":true"# as StaticString : #","rateLimited":false"# as StaticString)
        // The rest in as few appends as the shape allows: this runs for every request.
        switch delivery.outcome {
        case .answered: out.append(#","outcome":"answered""# as StaticString)
        case .fault: out.append(#","outcome":"fault""# as StaticString)
        case .clientGone: out.append(#","outcome":"client-gone""# as StaticString)
        case .shutdown: out.append(#","outcome":"shutdown""# as StaticString)
        case .refused: appendRefusal(delivery.reason, into: out)
        case .failed: out.append(#","outcome":"failed""# as StaticString)
        }
        if record.delayMs == 0 {
            // The common case in one copy; the rest out of line, so this function stays small.
            out.append(",\"delayMs\":0" as StaticString)
        } else {
            encodeDelay(record.delayMs, into: out)
        }
        out.append(#","outcomeMs":"# as StaticString)
        elapsed(outcomeElapsed, into: out)
        if let status = delivery.status {
            out.append(#","response":{"status":"# as StaticString)
            out.threeDigits(status)
            if let reason {
                out.append(#","reason":"# as StaticString)
                out.appendJSONString(reason)
            }
            out.append(#","headers":"# as StaticString)
            if let raw = delivery.rawHeaders {
                if let headerCache { headerCache.append(raw, into: out) } else { encodeHeaders(raw, into: out) }
            } else {
                encodeHeaders(delivery.headers, into: out)
            }
            out.append(#","bodySize":"# as StaticString)
            out.int(delivery.body.count)
            let truncated = encodeBody(delivery.body, limit: bodyLimit, into: out)
            out.append(truncated ? #","truncated":true}"# as StaticString : #","truncated":false}"# as StaticString)
        } else {
            out.append(#","response":null"# as StaticString)
        }
        // Only streamed responses carry `stream` (how the body was paced), so static lines stay as they were.
        if let stream = record.stream { appendStream(stream, into: out) }
        // Only checked requests that broke the contract carry `openapiViolations`.
        if let contract = record.contract { appendViolations(contract.violations, into: out) }
        // Likewise only proxied requests carry `proxied`.
        if let proxied = record.proxied { appendProxied(proxied, into: out) }
        // And only requests to a guarded stub carry `idempotency` and `retry`.
        if let notes = record.notes { appendNotes(notes, into: out) }
        out.append("}\n" as StaticString)
        return out.bytes(reusing: spare)
    }

    /// `"errorCode":"…"` (and a GOAWAY's `"lastStreamId":N`) after an HTTP/2 fault's `fault`, out of
    /// line (faults are rare).
    @inline(never)
    static func appendFrame(_ frame: FaultParameters.Frame, into out: JSONWriter) {
        out.key("errorCode")
        out.appendJSONString(frame.errorCode.rawValue)
        if let last = frame.lastStreamID {
            out.key("lastStreamId")
            out.int(Int(last))
        }
    }

    /// `"outcome":"refused","reason":"…"`, out of line (refusals are rare).
    @inline(never)
    static func appendRefusal(_ reason: String?, into out: JSONWriter) {
        out.append(#","outcome":"refused""# as StaticString)
        out.key("reason")
        out.appendJSONString(reason ?? "")
    }

    /// `"openapiViolations":[{"where","pointer","message"}…]`, out of line (only `serve --openapi`).
    @inline(never)
    static func appendViolations(_ violations: [ContractViolation], into out: JSONWriter) {
        out.key("openapiViolations")
        out.append(UInt8(ascii: "["))
        for (index, violation) in violations.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "{"))
            out.key("where", first: true)
            out.appendJSONString(violation.location)
            out.key("pointer")
            out.appendJSONString(violation.pointer)
            out.key("message")
            out.appendJSONString(violation.message)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `"stream":"KIND"`, out of line so the encoder every request runs stays as the optimizer had it.
    @inline(never)
    static func appendStream(_ stream: ResponseStreaming.Kind, into out: JSONWriter) {
        out.key("stream")
        out.appendJSONString(stream.rawValue)
    }

    /// `"proxied":{"upstream":…,"status":…,"ms":…,"error"?:…,"reason"?:…}`, out of line.
    @inline(never)
    static func appendProxied(_ proxied: ProxiedExchange, into out: JSONWriter) {
        out.key("proxied")
        out.append(UInt8(ascii: "{"))
        out.key("upstream", first: true)
        out.appendJSONString(proxied.upstream)
        out.key("status")
        if let status = proxied.status { out.int(status) } else { out.append("null" as StaticString) }
        out.key("ms")
        out.thousandths(UInt64(max(0, proxied.milliseconds) * 1000))
        if let error = proxied.error {
            out.key("error")
            out.appendJSONString(error)
        }
        if let reason = proxied.reason {
            out.key("reason")
            out.appendJSONString(reason)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `,"idempotency":{…}` and `,"retry":{…}`, each when the guards said something.
    @inline(never)
    static func appendNotes(_ notes: GuardNotes, into out: JSONWriter) {
        if let note = notes.idempotency { appendIdempotency(note, into: out) }
        if let verdict = notes.retry { appendRetry(verdict, into: out) }
    }

    /// `,"retry":{"askedMs","waitedMs","verdict","earlyByMs"?}`: the wait the previous answer to
    /// the same client asked for and how long the request waited, on the world's clock.
    static func appendRetry(_ verdict: RetryVerdict, into out: JSONWriter) {
        out.key("retry")
        out.append(UInt8(ascii: "{"))
        out.key("askedMs", first: true)
        out.number(verdict.askedMs)
        out.key("waitedMs")
        out.number(verdict.waitedMs)
        out.key("verdict")
        out.appendJSONString(verdict.kind.rawValue)
        if verdict.kind != .onTime {
            out.key("earlyByMs")
            out.number(verdict.earlyByMs)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `,"idempotency":{"key","outcome","stored"?}` for a request to a stub with `idempotency`.
    @inline(never)
    static func appendIdempotency(_ note: IdempotencyNote, into out: JSONWriter) {
        note.json.withUnsafeBufferPointer { out.append($0) }  // encoded when the note was made
    }

    /// `,"delayMs":N` for a delay other than 0: whole milliseconds as an integer, otherwise with
    /// three decimals (microseconds).
    @inline(never)
    private static func encodeDelay(_ delayMs: Double, into out: JSONWriter) {
        out.key("delayMs")
        if delayMs == delayMs.rounded() {
            out.digits(UInt64(max(0, delayMs)))
        } else {
            out.thousandths(UInt64(max(0, delayMs) * 1000))
        }
    }

    /// Encodes an entry with a buffer of its own (tests and one-off callers).
    static func encode(
        seq: Int, timePrefix: String, milliseconds: Int, record: JournalRecord, delivery: Delivery,
        outcomeElapsed: UInt64, bodyLimit: Int = JournalEntry.defaultBodyLimit
    ) -> [UInt8] {
        encode(
            seq: seq, timePrefix: timePrefix, milliseconds: milliseconds, record: record, delivery: delivery,
            outcomeElapsed: outcomeElapsed, bodyLimit: bodyLimit,
            into: JSONWriter(capacity: 512 + record.request.body.count + min(delivery.body.count, bodyLimit)))
    }

    /// Nanoseconds as milliseconds with three decimals (microsecond resolution).
    static func elapsed(_ nanoseconds: UInt64, into out: JSONWriter) {
        out.thousandths(nanoseconds / 1_000)
    }

    /// `"body": text` for UTF-8, otherwise `"bodyBase64": base64`; at most `limit` bytes of it.
    /// Returns whether the body was cut. A cut inside a UTF-8 sequence moves back to the
    /// sequence's start, so a text body stays text.
    @discardableResult
    static func encodeBody(_ body: [UInt8], limit: Int = .max, into out: JSONWriter) -> Bool {
        if body.isEmpty {
            out.append(#","body":"""# as StaticString)
            return false
        }
        var end = min(limit, body.count)
        let truncated = end < body.count
        var text = isUTF8(body[..<end])
        if !text && truncated {
            // The cut may have split a character: up to three continuation bytes go back.
            var back = end
            while back > 0 && back > end - 3 && body[back] & 0xC0 == 0x80 { back -= 1 }
            if back < end && isUTF8(body[..<back]) {
                end = back
                text = true
            }
        }
        if text {
            out.append(#","body":"# as StaticString)
            body.withUnsafeBufferPointer { out.appendJSONString(utf8: UnsafeBufferPointer(rebasing: $0[..<end])) }
        } else {
            out.append(#","bodyBase64":"# as StaticString)
            out.appendJSONString(Data(body[..<end]).base64EncodedString())
        }
        return truncated
    }

    /// Whether `bytes` are valid UTF-8; pure ASCII (the usual case) is checked without allocating.
    private static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    /// `{"name":[values...]}` with lower-cased names in first-seen order; repeated names grouped.
    /// Quadratic in the number of fields, which is small, and allocation-free.
    ///
    /// Names are compared only when their lengths are equal, and a head with no repeated name
    /// (nearly every one) is written in one straight pass.
    static func encodeHeaders<Fields: JournalHeaderFields>(_ fields: Fields, into out: JSONWriter) {
        let count = fields.count
        var repeated = false
        search: for i in 1..<max(1, count) {
            let length = fields.nameLength(i)
            for j in 0..<i where fields.nameLength(j) == length && fields.namesMatch(i, j) {
                repeated = true
                break search
            }
        }
        guard repeated else {
            out.append(UInt8(ascii: "{"))
            for i in 0..<count {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                fields.appendName(i, to: out)
                out.append(":[" as StaticString)
                fields.appendValue(i, to: out)
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "}"))
            return
        }
        out.append(UInt8(ascii: "{"))
        var first = true
        for i in 0..<count {
            if i > 0 && (0..<i).contains(where: { fields.namesMatch($0, i) }) { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            fields.appendName(i, to: out)
            out.append(":[" as StaticString)
            fields.appendValue(i, to: out)
            for j in (i + 1)..<count where fields.namesMatch(j, i) {
                out.append(UInt8(ascii: ","))
                fields.appendValue(j, to: out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }
}

/// Header fields as the journal encoder reads them, so one encoder serves the request's
/// ``HTTPHeaders`` and the response head a transport lends as raw bytes (``RawHeaderField``).
protocol JournalHeaderFields {
    var count: Int { get }
    /// The length of field `i`'s name in bytes.
    func nameLength(_ i: Int) -> Int
    /// Whether fields `i` and `j` have the same name, ignoring ASCII case.
    func namesMatch(_ i: Int, _ j: Int) -> Bool
    /// Field `i`'s name, lower-cased, as a JSON string.
    func appendName(_ i: Int, to out: JSONWriter)
    /// Field `i`'s value as a JSON string.
    func appendValue(_ i: Int, to out: JSONWriter)
}

extension HTTPHeaders: JournalHeaderFields {
    func nameLength(_ i: Int) -> Int {
        fields[i].name.utf8.count
    }

    func namesMatch(_ i: Int, _ j: Int) -> Bool {
        HTTPHeaders.namesMatch(fields[i].name, fields[j].name)
    }

    func appendName(_ i: Int, to out: JSONWriter) {
        var name = fields[i].name
        name.withUTF8 { out.appendJSONString(utf8: $0, lowercasingASCII: true) }
    }

    func appendValue(_ i: Int, to out: JSONWriter) {
        out.appendJSONString(fields[i].value)
    }
}

extension UnsafeBufferPointer: JournalHeaderFields where Element == RawHeaderField {
    func nameLength(_ i: Int) -> Int {
        self[i].name.count
    }

    func namesMatch(_ i: Int, _ j: Int) -> Bool {
        let a = self[i].name, b = self[j].name
        guard a.count == b.count else { return false }
        for k in 0..<a.count where a[k] != b[k] {
            let x = a[k] | 0x20, y = b[k] | 0x20
            if x != y || x < UInt8(ascii: "a") || x > UInt8(ascii: "z") { return false }
        }
        return true
    }

    func appendName(_ i: Int, to out: JSONWriter) {
        out.appendJSONString(utf8: self[i].name, lowercasingASCII: true)
    }

    func appendValue(_ i: Int, to out: JSONWriter) {
        out.appendJSONString(utf8: self[i].value)
    }
}
