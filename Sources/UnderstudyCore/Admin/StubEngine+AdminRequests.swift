/// `GET|DELETE /__admin/requests` and `POST /__admin/requests/count`.
extension StubEngine {
    static let requestFilters = ["stub", "method", "path", "matched", "since", "limit"]

    func listRequests(_ query: String?) -> HTTPResponse {
        var stub: String?, method: String?, path: String?, matched: Bool?, since = 0, limit = Int.max
        for (name, value) in PercentDecoding.queryPairs(query) {
            switch name {
            case "stub": stub = value
            case "method": method = value.uppercased()
            case "path": path = value
            case "matched":
                switch value {
                case "true": matched = true
                case "false": matched = false
                default: return AdminResponse.error(400, "matched must be true or false, found `\(value)`")
                }
            case "since":
                guard let number = Int(value), number >= 0 else { return AdminResponse.error(400, "since must be a seq number (0 or more), found `\(value)`") }
                since = number
            case "limit":
                guard let number = Int(value), number >= 0 else { return AdminResponse.error(400, "limit must be a count (0 or more), found `\(value)`") }
                limit = number
            default:
                let hint = EditDistance.closest(to: name, among: Self.requestFilters).map { "; did you mean `\($0)`?" } ?? ""
                return AdminResponse.error(400, "unknown filter `\(name)`\(hint) (filters: \(Self.requestFilters.joined(separator: ", ")))")
            }
        }
        var writer = JSONWriter(capacity: 1024)
        writer.raw("{\"requests\":[")
        var total = 0
        journal.forEach { entry in
            guard entry.seq > since else { return }
            if let stub, entry.stubID != stub { return }
            if let method, entry.request.method.uppercased() != method { return }
            if let path, entry.request.path != path, PercentDecoding.decodePath(entry.request.path) != path { return }
            if let matched, entry.matched != matched { return }
            if total < limit {
                if total > 0 { writer.raw(",") }
                // WireMock's serve-event fields beside the native ones (README: Coming from WireMock).
                writer.bytes.append(contentsOf: entry.json.dropLast())
                writer.raw(",")
                writer.bytes.append(contentsOf: Self.wireMockServeEventFields(entry).dropFirst())
            }
            total += 1
        }
        writer.raw("],\"total\":")
        writer.int(total)
        writer.raw(",\"dropped\":")
        writer.int(journal.dropped)
        writer.raw(",\"meta\":{\"total\":")
        writer.int(total)
        writer.raw("},\"requestJournalDisabled\":false}")
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
        let pattern = isWireMockPattern(target)
            ? decoder.decodeWireMockRequest(target, JSONPath(text: path))
            : decoder.decodeRequest(target, path)
        guard let pattern, decoder.errors.isEmpty else {
            return .failure(AdminResponse.Failure(response: AdminResponse.loadFailure(StubLoadFailure(errors: decoder.errors))))
        }
        return .success(pattern)
    }
}
