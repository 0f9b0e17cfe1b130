/// The journal filters shared by `GET /__admin/requests`, `GET /__admin/requests.har` and the UI:
/// `stub`, `method`, `path` (raw or decoded), `matched`, `status` (`404` or a class like `4xx`),
/// `since` (seq greater than) and `limit` (first N after filtering).
struct RequestFilter {
    static let names = ["stub", "method", "path", "matched", "status", "since", "limit"]

    var stub: String?
    var method: String?
    var path: String?
    var matched: Bool?
    /// Inclusive status range: `404` is 404...404, `4xx` is 400...499.
    var status: ClosedRange<Int>?
    var since = 0
    var limit = Int.max

    /// Parses the query string; a bad or unknown filter is a 400 that names it.
    static func parse(_ query: String?) -> Result<RequestFilter, AdminResponse.Failure> {
        var filter = RequestFilter()
        func refuse(_ message: String) -> Result<RequestFilter, AdminResponse.Failure> {
            .failure(AdminResponse.Failure(response: AdminResponse.error(400, message)))
        }
        for (name, value) in PercentDecoding.queryPairs(query) {
            switch name {
            case "stub": filter.stub = value
            case "method": filter.method = value.uppercased()
            case "path": filter.path = value
            case "matched":
                switch value {
                case "true": filter.matched = true
                case "false": filter.matched = false
                default: return refuse("matched must be true or false, found `\(value)`")
                }
            case "status":
                guard let range = statusRange(value) else {
                    return refuse("status must be a status code like 404 or a class like 4xx, found `\(value)`")
                }
                filter.status = range
            case "since":
                guard let number = Int(value), number >= 0 else { return refuse("since must be a seq number (0 or more), found `\(value)`") }
                filter.since = number
            case "limit":
                guard let number = Int(value), number >= 0 else { return refuse("limit must be a count (0 or more), found `\(value)`") }
                filter.limit = number
            default:
                let hint = EditDistance.closest(to: name, among: names).map { "; did you mean `\($0)`?" } ?? ""
                return refuse("unknown filter `\(name)`\(hint) (filters: \(names.joined(separator: ", ")))")
            }
        }
        return .success(filter)
    }

    private static func statusRange(_ text: String) -> ClosedRange<Int>? {
        let lowered = text.lowercased()
        if lowered.count == 3, lowered.hasSuffix("xx"), let digit = Int(lowered.prefix(1)), (1...5).contains(digit) {
            return (digit * 100)...(digit * 100 + 99)
        }
        guard let code = Int(text), (100...599).contains(code) else { return nil }
        return code...code
    }

    /// Whether `entry` passes every filter but `limit`.
    func includes(_ entry: JournalEntry) -> Bool {
        guard entry.seq > since else { return false }
        if let stub, entry.stubID != stub { return false }
        if let method, entry.request.method.uppercased() != method { return false }
        if let path, entry.request.path != path, PercentDecoding.decodePath(entry.request.path) != path { return false }
        if let matched, entry.matched != matched { return false }
        if let status, !status.contains(entry.status) { return false }
        return true
    }
}
