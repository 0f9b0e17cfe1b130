/// `GET /__admin/requests/{seq}/near-misses`: why the stubs missed a journaled request, computed
/// when asked (never on the request path) against the stubs and scenario states as they are now.
/// The unmatched response the client got at the time is in the entry's `response` body.
extension RequestsAdmin {
    static func nearMisses(_ call: AdminCall) -> HTTPResponse {
        let seqText = call.parameter
        let engine = call.engine
        guard let seq = Int(seqText), seq > 0 else {
            return AdminResponse.error(400, "`\(seqText)` is not a seq number; use /__admin/requests/SEQ/near-misses")
        }
        var found: JournalEntry?
        engine.journal.forEach { entry in
            if entry.seq == seq { found = entry }
        }
        guard let entry = found else {
            return AdminResponse.error(404, "no journal entry with seq \(seq) (cleared, dropped or not yet made)")
        }
        let context = MatchContext(entry.request)
        let ranking = engine.nearMissRanking
        let misses: [JSONValue] =
            engine.stubs.isEmpty
            ? []
            : ranking.nearMisses(context).map { miss in
                .object([
                    JSONMember("stub", .string(miss.stubID)),
                    JSONMember("file", .string(miss.file)),
                    JSONMember("reasons", .array(miss.reasons.map(JSONValue.string))),
                ])
            }
        return AdminResponse.value(
            .object([
                JSONMember("seq", .int(seq)),
                JSONMember("matched", .bool(entry.matched)),
                JSONMember("stub", .optional(entry.stubID)),
                JSONMember("text", .string(ranking.report(context))),
                JSONMember("nearMisses", .array(misses)),
            ]))
    }
}
