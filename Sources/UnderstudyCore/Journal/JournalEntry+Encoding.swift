import Foundation

extension JournalEntry {
    /// Encodes an entry as one JSON Lines line (newline included) in the documented field order:
    /// `{"seq","time","elapsedMs","method","path","query","headers","body"|"bodyBase64","matched",
    /// "stub","responseIndex","status","fault","scenario","rateLimited"}`.
    ///
    /// `timePrefix` is the timestamp up to and including the seconds' `.`; the milliseconds and
    /// `elapsedMs` are written as digits straight into the buffer.
    static func encode(seq: Int, timePrefix: String, milliseconds: Int, elapsedNanoseconds: UInt64, record: JournalRecord) -> [UInt8] {
        let request = record.request
        var writer = JSONWriter(capacity: 384 + request.body.count)
        writer.raw("{")
        writer.key("seq", first: true); writer.int(seq)
        writer.key("time")
        writer.raw("\"")
        writer.raw(timePrefix)
        writer.digits(UInt64(milliseconds), minimumWidth: 3)
        writer.raw("Z\"")
        let micro = elapsedNanoseconds / 1_000
        writer.key("elapsedMs"); writer.digits(micro / 1_000); writer.raw("."); writer.digits(micro % 1_000, minimumWidth: 3)
        writer.key("method"); writer.string(request.method)
        writer.key("path"); writer.string(request.path)
        writer.key("query"); writer.optionalString(request.query)
        writer.key("headers"); encodeHeaders(request.headers, into: &writer)
        if request.body.isEmpty {
            writer.key("body"); writer.raw("\"\"")
        } else if String(validating: request.body, as: UTF8.self) != nil {
            writer.key("body")
            request.body.withUnsafeBufferPointer { writer.string(utf8: $0) }
        } else {
            writer.key("bodyBase64"); writer.string(Data(request.body).base64EncodedString())
        }
        writer.key("matched"); writer.bool(record.matched)
        writer.key("stub"); writer.optionalString(record.stubID)
        writer.key("responseIndex")
        if let index = record.responseIndex { writer.int(index) } else { writer.raw("null") }
        writer.key("status"); writer.int(record.status)
        writer.key("fault"); writer.optionalString(record.fault?.rawValue)
        writer.key("scenario")
        if let move = record.scenario {
            writer.raw("{")
            writer.key("name", first: true); writer.string(move.name)
            writer.key("from"); writer.string(move.from)
            writer.key("to"); writer.string(move.to)
            writer.raw("}")
        } else {
            writer.raw("null")
        }
        writer.key("rateLimited"); writer.bool(record.rateLimited)
        writer.raw("}\n")
        return writer.bytes
    }

    /// `{"name":[values...]}` with lower-cased names in first-seen order; repeated names grouped.
    /// Quadratic in the number of fields, which is small, and allocation-free.
    private static func encodeHeaders(_ headers: HTTPHeaders, into writer: inout JSONWriter) {
        let fields = headers.fields
        writer.raw("{")
        var first = true
        for i in fields.indices {
            let name = fields[i].name
            if fields[..<i].contains(where: { HTTPHeaders.namesMatch($0.name, name) }) { continue }
            if !first { writer.raw(",") }
            first = false
            writer.lowercasedString(name)
            writer.raw(":[")
            writer.string(fields[i].value)
            for j in (i + 1)..<fields.count where HTTPHeaders.namesMatch(fields[j].name, name) {
                writer.raw(",")
                writer.string(fields[j].value)
            }
            writer.raw("]")
        }
        writer.raw("}")
    }
}
