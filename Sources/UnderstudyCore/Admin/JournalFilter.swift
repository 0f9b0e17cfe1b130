/// The query filters of `GET /__admin/requests` and `GET /__admin/requests/wait`: which journal
/// entries to return (`stub`, `method`, `path`, `matched`, `since`) and how many (`limit`).
struct JournalFilter {
    static let names = ["stub", "method", "path", "matched", "since", "limit"]

    var stub: String?
    var method: String?
    var path: String?
    var matched: Bool?
    var since = 0
    var limit = Int.max

    /// Parses the filters in `query`. Parameters named in `extra` are handed to `other` (which
    /// returns an error message or nil) instead of being refused as unknown.
    static func parse(_ query: String?, extra: [String] = [],
                      other: (String, String) -> String? = { _, _ in nil }) -> Result<JournalFilter, AdminResponse.Failure> {
        var filter = JournalFilter()
        func fail(_ message: String) -> Result<JournalFilter, AdminResponse.Failure> {
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
                default: return fail("matched must be true or false, found `\(value)`")
                }
            case "since":
                guard let number = Int(value), number >= 0 else { return fail("since must be a seq number (0 or more), found `\(value)`") }
                filter.since = number
            case "limit":
                guard let number = Int(value), number >= 0 else { return fail("limit must be a count (0 or more), found `\(value)`") }
                filter.limit = number
            case _ where extra.contains(name):
                if let problem = other(name, value) { return fail(problem) }
            default:
                let known = names + extra
                let hint = EditDistance.closest(to: name, among: known).map { "; did you mean `\($0)`?" } ?? ""
                return fail("unknown filter `\(name)`\(hint) (filters: \(known.joined(separator: ", ")))")
            }
        }
        return .success(filter)
    }

    /// Whether `entry` passes every filter but `limit`.
    func matches(_ entry: JournalEntry) -> Bool {
        guard entry.seq > since else { return false }
        if let stub, entry.stubID != stub { return false }
        if let method, entry.request.method.uppercased() != method { return false }
        if let path, entry.request.path != path, PercentDecoding.decodePath(entry.request.path) != path { return false }
        if let matched, entry.matched != matched { return false }
        return true
    }
}
