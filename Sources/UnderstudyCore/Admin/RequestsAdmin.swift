import UnderstudyHTTP

/// `GET|DELETE /__admin/requests`, `POST /__admin/requests/count` and `POST /__admin/requests/find`.
package enum RequestsAdmin {
    static func list(_ call: AdminCall) -> HTTPResponse {
        switch JournalFilter.parse(call.request.query) {
        case .success(let filter): return render(call, where: filter.matches, limit: filter.limit)
        case .failure(let invalid): return AdminResponse.error(400, invalid.message)
        }
    }

    static func clear(_ call: AdminCall) -> HTTPResponse {
        AdminResponse.value(.object([JSONMember("cleared", .int(call.engine.clearJournal()))]))
    }

    /// `{"requests":[...],"total":N,"dropped":N}` plus `extra` members: the entries that pass
    /// `include`, the first `limit` of them written out; `total` counts them all. Each entry is
    /// its journal line, with the fields adapters add (``AdminAdapter/journalEntryFields``).
    package static func render(
        _ call: AdminCall, where include: (JournalEntry) -> Bool, limit: Int = .max,
        extra: [(key: String, value: String)] = []
    ) -> HTTPResponse {
        let journal = call.engine.journal
        let decorations = call.routes.adapters.compactMap(\.journalEntryFields)
        let writer = JSONWriter(capacity: 1024)
        writer.append("{\"requests\":[")
        var total = 0
        journal.forEach { entry in
            guard include(entry) else { return }
            if total < limit {
                if total > 0 { writer.append(",") }
                writer.append(entry.json.dropLast())  // the line without its closing brace
                for fields in decorations {
                    let object = fields(entry)
                    guard object.count > 2 else { continue }
                    writer.append(",")
                    writer.append(object.dropFirst().dropLast())
                }
                writer.append("}")
            }
            total += 1
        }
        writer.append("],\"total\":")
        writer.int(total)
        writer.append(",\"dropped\":")
        writer.int(journal.dropped)
        for (key, value) in extra {
            writer.append(",\"\(key)\":\(value)")
        }
        writer.append(",\"meta\":{\"total\":")
        writer.int(total)
        writer.append("},\"requestJournalDisabled\":false}")
        return AdminResponse.json(200, writer.bytes)
    }

    static func count(_ call: AdminCall) -> HTTPResponse {
        let pattern: RequestPattern
        switch decodePattern(call.request.body) {
        case .success(let decoded): pattern = decoded
        case .failure(let failure): return failure.response
        }
        var count = 0
        call.engine.journal.forEach { entry in
            if pattern.matches(MatchContext(entry.request)) { count += 1 }
        }
        return AdminResponse.value(.object([JSONMember("count", .int(count))]))
    }

    /// `POST /__admin/requests/find`: the entries whose request the posted matcher matches.
    static func find(_ call: AdminCall) -> HTTPResponse {
        switch decodePattern(call.request.body) {
        case .success(let pattern): return render(call, where: { pattern.matches(MatchContext($0.request)) })
        case .failure(let failure): return failure.response
        }
    }

    /// The body of `count` and `find`: a request matcher in any shape the loader reads (a stub's
    /// `request`, bare or as `{"request": {...}}`, or another format's, told apart by its keys).
    private static func decodePattern(_ body: [UInt8]) -> Result<RequestPattern, AdminResponse.Failure> {
        let node: JSONNode
        do {
            node = try JSONParser.parse(body)
        } catch {
            return .failure(
                AdminResponse.Failure(
                    response: AdminResponse.error(
                        400,
                        "body is not JSON (line \(error.position.line), column \(error.position.column)): \(error.message)"
                    )))
        }
        return StubLoader.requestPattern(node).mapError {
            AdminResponse.Failure(response: AdminResponse.loadFailure($0))
        }
    }
}
