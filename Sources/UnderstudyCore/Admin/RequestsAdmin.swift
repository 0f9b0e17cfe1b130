/// `GET|DELETE /__admin/requests`, `POST /__admin/requests/count` and `POST /__admin/requests/find`.
extension StubEngine {
    func listRequests(_ query: String?) -> HTTPResponse {
        switch JournalFilter.parse(query) {
        case .success(let filter): return renderRequests(where: filter.matches, limit: filter.limit)
        case .failure(let invalid): return AdminResponse.error(400, invalid.message)
        }
    }

    /// `{"requests":[...],"total":N,"dropped":N}` plus `extra` members: the entries that pass
    /// `include`, the first `limit` of them written out; `total` counts them all.
    func renderRequests(where include: (JournalEntry) -> Bool, limit: Int = .max,
                        extra: [(key: String, value: String)] = []) -> HTTPResponse {
        let writer = JSONWriter(capacity: 1024)
        writer.append("{\"requests\":[")
        var total = 0
        journal.forEach { entry in
            guard include(entry) else { return }
            if total < limit {
                if total > 0 { writer.append(",") }
                // WireMock's serve-event fields beside the native ones (README: Coming from WireMock).
                writer.append(entry.json.dropLast())
                writer.append(",")
                writer.append(Self.wireMockServeEventFields(entry).dropFirst())
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

    func countRequests(_ body: [UInt8]) -> HTTPResponse {
        let pattern: RequestPattern
        switch Self.decodeRequestPattern(body) {
        case .success(let decoded): pattern = decoded
        case .failure(let failure): return failure.response
        }
        var count = 0
        journal.forEach { entry in
            if pattern.matches(MatchContext(entry.request)) { count += 1 }
        }
        return AdminResponse.value(.object([JSONMember("count", .int(count))]))
    }

    /// `POST /__admin/requests/find`: the entries whose request the posted matcher matches.
    func findRequests(_ body: [UInt8]) -> HTTPResponse {
        switch Self.decodeRequestQuery(body) {
        case .success(let matches): return renderRequests(where: { matches($0.request) })
        case .failure(let failure): return failure.response
        }
    }

    /// The body of `POST /__admin/requests/find` as a predicate on requests. Every request shape
    /// the endpoint accepts is decoded here: today the native matcher (a stub's `request`, bare
    /// or as `{"request": {...}}`); other shapes (WireMock's request pattern) are told apart by
    /// their keys and added in this one place.
    static func decodeRequestQuery(_ body: [UInt8]) -> Result<(HTTPRequest) -> Bool, AdminResponse.Failure> {
        decodeRequestPattern(body).map { pattern in
            { request in pattern.matches(MatchContext(request)) }
        }
    }

    /// A request matcher, bare or wrapped as `{"request": {...}}`.
    static func decodeRequestPattern(_ body: [UInt8]) -> Result<RequestPattern, AdminResponse.Failure> {
        let node: JSONNode
        do {
            node = try JSONParser.parse(body)
        } catch {
            return .failure(AdminResponse.Failure(response: AdminResponse.error(400, "body is not JSON (line \(error.position.line), column \(error.position.column)): \(error.message)")))
        }
        var target = node
        var path = ""
        if let members = node.members, members.count == 1, members[0].key == "request" {
            target = members[0].value
            path = "request"
        }
        var decoder = StubDecoder(file: "<admin>", bodyFiles: nil)
        let pattern = isWireMockPattern(target)
            ? decoder.decodeWireMockRequest(target, JSONPath(text: path))
            : decoder.decodeRequest(target, path)
        guard let pattern, decoder.errors.isEmpty else {
            return .failure(AdminResponse.Failure(response: AdminResponse.loadFailure(StubLoadFailure(errors: decoder.errors))))
        }
        return .success(pattern)
    }
}
