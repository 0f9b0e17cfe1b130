/// The query filters of `GET /__admin/requests`, `GET /__admin/requests/wait` and
/// `GET /__admin/requests.har`: which journal entries to return (`stub`, `method`, `path`,
/// `matched`, `status` — `404` or a class like `4xx` — and `since`) and how many (`limit`).
struct JournalFilter {
    static let names = ["stub", "method", "path", "matched", "status", "since", "limit"]

    var stub: String?
    var method: String?
    var path: String?
    var matched: Bool?
    /// Inclusive status range: `404` is 404...404, `4xx` is 400...499.
    var status: ClosedRange<Int>?
    var since = 0
    var limit = Int.max

    /// Parses the filters in `query`. Parameters named in `extra` are handed to `other` (which
    /// returns an error message or nil) instead of being refused as unknown.
    /// Why a query was refused (the admin API answers 400 with it).
    struct Invalid: Error {
        var message: String
    }

    static func parse(
        _ query: String?, extra: [String] = [],
        other: (String, String) -> String? = { _, _ in nil }
    ) -> Result<JournalFilter, Invalid> {
        var filter = JournalFilter()
        func fail(_ message: String) -> Result<JournalFilter, Invalid> {
            .failure(Invalid(message: message))
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
            case "status":
                guard let range = statusRange(value) else {
                    return fail("status must be a status code like 404 or a class like 4xx, found `\(value)`")
                }
                filter.status = range
            case "since":
                guard let number = Int(value), number >= 0 else {
                    return fail("since must be a seq number (0 or more), found `\(value)`")
                }
                filter.since = number
            case "limit":
                guard let number = Int(value), number >= 0 else {
                    return fail("limit must be a count (0 or more), found `\(value)`")
                }
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
        if let status, !Self.status(entry.status, isIn: status) { return false }
        return true
    }

    static func status(_ code: Int, isIn range: ClosedRange<Int>) -> Bool {
        range.contains(code)
    }

    /// An entry with no status line sent passes no status filter.
    static func status(_ code: Int?, isIn range: ClosedRange<Int>) -> Bool {
        code.map(range.contains) ?? false
    }

    private static func statusRange(_ text: String) -> ClosedRange<Int>? {
        let lowered = text.lowercased()
        if lowered.count == 3, lowered.hasSuffix("xx"), let digit = Int(lowered.prefix(1)), (1...5).contains(digit) {
            return (digit * 100)...(digit * 100 + 99)
        }
        guard let code = Int(text), (100...599).contains(code) else { return nil }
        return code...code
    }
}

extension Journal {
    /// How many entries pass `filter` (its `limit` aside).
    func count(passing filter: JournalFilter) -> Int {
        var seen = 0
        forEach { if filter.matches($0) { seen += 1 } }
        return seen
    }
}
