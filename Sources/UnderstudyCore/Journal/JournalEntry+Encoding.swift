import Foundation

extension JournalEntry {
    /// Encodes an entry in the documented field order:
    /// `{"seq","time","elapsedMs","method","path","query","headers","body"|"bodyBase64","matched",
    /// "stub","responseIndex","status","fault","scenario","rateLimited"}`.
    static func encode(seq: Int, time: String, elapsedMs: String, record: JournalRecord) -> [UInt8] {
        let request = record.request
        var writer = JSONWriter(capacity: 320 + request.body.count)
        writer.raw("{")
        writer.key("seq", first: true); writer.int(seq)
        writer.key("time"); writer.string(time)
        writer.key("elapsedMs"); writer.raw(elapsedMs)
        writer.key("method"); writer.string(request.method)
        writer.key("path"); writer.string(request.path)
        writer.key("query"); writer.optionalString(request.query)
        writer.key("headers"); encodeHeaders(request.headers, into: &writer)
        if let text = String(validating: request.body, as: UTF8.self) {
            writer.key("body"); writer.string(text)
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
        writer.raw("}")
        return writer.bytes
    }

    /// `{"name":[values...]}` with lower-cased names in first-seen order; repeated names grouped.
    private static func encodeHeaders(_ headers: HTTPHeaders, into writer: inout JSONWriter) {
        var names: [String] = []
        var values: [[String]] = []
        for field in headers {
            let name = lowercasedASCII(field.name)
            if let index = names.firstIndex(of: name) {
                values[index].append(field.value)
            } else {
                names.append(name)
                values.append([field.value])
            }
        }
        writer.raw("{")
        for (index, name) in names.enumerated() {
            writer.key(name, first: index == 0)
            writer.raw("[")
            for (i, value) in values[index].enumerated() {
                if i > 0 { writer.raw(",") }
                writer.string(value)
            }
            writer.raw("]")
        }
        writer.raw("}")
    }

    static func lowercasedASCII(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
