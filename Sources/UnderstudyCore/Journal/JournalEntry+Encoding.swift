#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JournalEntry {
    /// Encodes an entry as one JSON Lines line (newline included) in the documented field order:
    /// `{"seq","time","elapsedMs","method","path","query","headers","body"|"bodyBase64","matched",
    /// "stub","responseIndex","status","fault","scenario","rateLimited","outcome","delayMs",
    /// "outcomeMs","response"}`.
    ///
    /// `timePrefix` is the arrival timestamp up to and including the seconds' `.`; the
    /// milliseconds and the elapsed times are written as digits straight into the buffer.
    /// `buffer` is scratch space, reused across calls; the line is returned as an array of
    /// exactly its size.
    static func encode(seq: Int, timePrefix: String, milliseconds: Int, record: JournalRecord, delivery: Delivery,
                       outcomeElapsed: UInt64, bodyLimit: Int, into buffer: JournalLineBuffer) -> [UInt8] {
        let request = record.request
        let out = buffer
        out.reset()
        out.append("{" as StaticString)
        out.key("seq", first: true); out.int(seq)
        out.key("time")
        out.append(UInt8(ascii: "\""))
        out.append(timePrefix)
        out.digits(UInt64(milliseconds), minimumWidth: 3)
        out.append("Z\"" as StaticString)
        out.key("elapsedMs"); elapsed(record.arrivalElapsed, into: out)
        out.key("method"); out.appendJSONString(request.method)
        out.key("path"); out.appendJSONString(request.path)
        out.key("query"); out.optionalJSONString(request.query)
        out.key("headers"); encodeHeaders(request.headers, into: out)
        encodeBody(request.body, into: out)
        out.key("matched"); out.bool(record.matched)
        out.key("stub"); out.optionalJSONString(record.stubID)
        out.key("responseIndex")
        if let index = record.responseIndex { out.int(index) } else { out.append("null" as StaticString) }
        out.key("status")
        if let status = delivery.status { out.int(status) } else { out.append("null" as StaticString) }
        out.key("fault"); out.optionalJSONString(delivery.fault?.rawValue)
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
        out.key("outcome"); out.appendJSONString(delivery.outcome.rawValue)
        out.key("delayMs"); out.number(record.delayMs)
        out.key("outcomeMs"); elapsed(outcomeElapsed, into: out)
        out.key("response")
        if let status = delivery.status {
            out.append(UInt8(ascii: "{"))
            out.key("status", first: true); out.int(status)
            out.key("headers"); encodeHeaders(delivery.headers, into: out)
            out.key("bodySize"); out.int(delivery.body.count)
            let truncated = encodeBody(delivery.body, limit: bodyLimit, into: out)
            out.key("truncated"); out.bool(truncated)
            out.append(UInt8(ascii: "}"))
        } else {
            out.append("null" as StaticString)
        }
        out.append("}\n" as StaticString)
        return out.bytes
    }

    /// Encodes an entry with a buffer of its own (tests and one-off callers).
    static func encode(seq: Int, timePrefix: String, milliseconds: Int, record: JournalRecord, delivery: Delivery,
                       outcomeElapsed: UInt64, bodyLimit: Int = EngineConfiguration.defaultJournalBodyLimit) -> [UInt8] {
        encode(seq: seq, timePrefix: timePrefix, milliseconds: milliseconds, record: record, delivery: delivery,
               outcomeElapsed: outcomeElapsed, bodyLimit: bodyLimit,
               into: JournalLineBuffer(capacity: 512 + record.request.body.count + min(delivery.body.count, bodyLimit)))
    }

    /// Nanoseconds as milliseconds with three decimals (microsecond resolution).
    private static func elapsed(_ nanoseconds: UInt64, into out: JournalLineBuffer) {
        let micro = nanoseconds / 1_000
        out.digits(micro / 1_000); out.append(UInt8(ascii: ".")); out.digits(micro % 1_000, minimumWidth: 3)
    }

    /// `"body": text` for UTF-8, otherwise `"bodyBase64": base64`; at most `limit` bytes of it.
    /// Returns whether the body was cut. A cut inside a UTF-8 sequence moves back to the
    /// sequence's start, so a text body stays text.
    @discardableResult
    private static func encodeBody(_ body: [UInt8], limit: Int = .max, into out: JournalLineBuffer) -> Bool {
        if body.isEmpty {
            out.key("body"); out.append("\"\"" as StaticString)
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
            out.key("body")
            body.withUnsafeBufferPointer { out.appendJSONString(utf8: UnsafeBufferPointer(rebasing: $0[..<end])) }
        } else {
            out.key("bodyBase64"); out.appendJSONString(Data(body[..<end]).base64EncodedString())
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
