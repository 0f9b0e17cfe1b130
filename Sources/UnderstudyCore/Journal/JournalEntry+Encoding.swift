#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JournalEntry {
    /// Encodes an entry as one JSON Lines line (newline included) in the documented field order:
    /// `{"seq","session"?,"scheme"?,"time","elapsedMs","method","path","query","headers","body"|"bodyBase64","matched",
    /// "stub","responseIndex","status","fault","scenario","rateLimited","delayMs"}`.
    ///
    /// `timePrefix` is the timestamp up to and including the seconds' `.`; the milliseconds and
    /// `elapsedMs` are written as digits straight into the buffer. `buffer` is scratch space,
    /// reused across calls; the line is returned as an array of exactly its size. `session` is
    /// the id of the session whose engine journals the entry (absent on the main port).
    static func encode(seq: Int, session: String? = nil, timePrefix: String, milliseconds: Int, elapsedNanoseconds: UInt64, record: JournalRecord,
                       into buffer: JournalLineBuffer) -> [UInt8] {
        let request = record.request
        let out = buffer
        out.reset()
        out.append("{" as StaticString)
        out.key("seq", first: true); out.int(seq)
        if let session { out.key("session"); out.appendJSONString(session) }
        // Only TLS requests carry a scheme, so plain-HTTP lines stay as they were ("http" when absent).
        if request.isSecure { out.key("scheme"); out.append("\"https\"" as StaticString) }
        out.key("time")
        out.append(UInt8(ascii: "\""))
        out.append(timePrefix)
        out.digits(UInt64(milliseconds), minimumWidth: 3)
        out.append("Z\"" as StaticString)
        let micro = elapsedNanoseconds / 1_000
        out.key("elapsedMs"); out.digits(micro / 1_000); out.append(UInt8(ascii: ".")); out.digits(micro % 1_000, minimumWidth: 3)
        out.key("method"); out.appendJSONString(request.method)
        out.key("path"); out.appendJSONString(request.path)
        out.key("query"); out.optionalJSONString(request.query)
        out.key("headers"); encodeHeaders(request.headers, into: out)
        if request.body.isEmpty {
            out.key("body"); out.append("\"\"" as StaticString)
        } else if String(validating: request.body, as: UTF8.self) != nil {
            out.key("body")
            request.body.withUnsafeBufferPointer { out.appendJSONString(utf8: $0) }
        } else {
            out.key("bodyBase64"); out.appendJSONString(Data(request.body).base64EncodedString())
        }
        out.key("matched"); out.bool(record.matched)
        out.key("stub"); out.optionalJSONString(record.stubID)
        out.key("responseIndex")
        if let index = record.responseIndex { out.int(index) } else { out.append("null" as StaticString) }
        out.key("status"); out.int(record.status)
        out.key("fault"); out.optionalJSONString(record.fault?.rawValue)
        out.key("scenario")
        if let move = record.scenario {
            out.append(UInt8(ascii: "{"))
            out.key("name", first: true); out.appendJSONString(move.name)
            out.key("from"); out.appendJSONString(move.from)
            out.key("to"); out.appendJSONString(move.to)
            out.append(UInt8(ascii: "}"))
        } else {
            out.append("null" as StaticString)
        }
        out.key("rateLimited"); out.bool(record.rateLimited)
        if record.delayMs == 0 {
            // The common case in one copy; the rest out of line, so this function stays small.
            out.append(",\"delayMs\":0" as StaticString)
        } else {
            encodeDelay(record.delayMs, into: out)
        }
        out.append("}\n" as StaticString)
        return out.bytes
    }

    /// `,"delayMs":N` for a delay other than 0: whole milliseconds as an integer, otherwise with
    /// three decimals (microseconds).
    @inline(never)
    private static func encodeDelay(_ delayMs: Double, into out: JournalLineBuffer) {
        out.key("delayMs")
        if delayMs == delayMs.rounded() {
            out.digits(UInt64(max(0, delayMs)))
        } else {
            let micro = UInt64(max(0, delayMs) * 1000)
            out.digits(micro / 1_000); out.append(UInt8(ascii: ".")); out.digits(micro % 1_000, minimumWidth: 3)
        }
    }

    /// Encodes an entry with a buffer of its own (tests and one-off callers).
    static func encode(seq: Int, timePrefix: String, milliseconds: Int, elapsedNanoseconds: UInt64, record: JournalRecord) -> [UInt8] {
        encode(seq: seq, timePrefix: timePrefix, milliseconds: milliseconds, elapsedNanoseconds: elapsedNanoseconds,
               record: record, into: JournalLineBuffer(capacity: 384 + record.request.body.count))
    }

    /// `{"name":[values...]}` with lower-cased names in first-seen order; repeated names grouped.
    /// Quadratic in the number of fields, which is small, and allocation-free.
    private static func encodeHeaders(_ headers: HTTPHeaders, into out: JournalLineBuffer) {
        let fields = headers.fields
        out.append(UInt8(ascii: "{"))
        var first = true
        for i in fields.indices {
            let name = fields[i].name
            if i > 0 && fields[..<i].contains(where: { HTTPHeaders.namesMatch($0.name, name) }) { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            var lowered = name
            lowered.withUTF8 { out.appendJSONString(utf8: $0, lowercasingASCII: true) }
            out.append(":[" as StaticString)
            out.appendJSONString(fields[i].value)
            for j in (i + 1)..<fields.count where HTTPHeaders.namesMatch(fields[j].name, name) {
                out.append(UInt8(ascii: ","))
                out.appendJSONString(fields[j].value)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }
}
