/// `GET|DELETE /__admin/requests` and `POST /__admin/requests/count`.
extension StubEngine {
    func listRequests(_ query: String?) -> HTTPResponse {
        let filter: RequestFilter
        switch RequestFilter.parse(query) {
        case .success(let parsed): filter = parsed
        case .failure(let failure): return failure.response
        }
        var writer = JSONWriter(capacity: 1024)
        writer.raw("{\"requests\":[")
        var total = 0
        journal.forEach { entry in
            guard filter.includes(entry) else { return }
            if total < filter.limit {
                if total > 0 { writer.raw(",") }
                writer.bytes.append(contentsOf: entry.json)
            }
            total += 1
        }
        writer.raw("],\"total\":")
        writer.int(total)
        writer.raw(",\"dropped\":")
        writer.int(journal.dropped)
        writer.raw("}")
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
        let pattern = decoder.decodeRequest(target, path)
        guard let pattern, decoder.errors.isEmpty else {
            return .failure(AdminResponse.Failure(response: AdminResponse.loadFailure(StubLoadFailure(errors: decoder.errors))))
        }
        return .success(pattern)
    }
}
