/// One request prepared for matching. Derived forms (decoded path, query pairs, body text and JSON)
/// are computed at most once, and only if some stub asks for them.
final class MatchContext {
    let request: HTTPRequest
    /// The method upper-cased, for case-insensitive comparison.
    let method: String
    /// The path percent-decoded.
    let path: String

    init(_ request: HTTPRequest) {
        self.request = request
        self.method = Self.uppercasedASCII(request.method)
        self.path = PercentDecoding.decodePath(request.path)
    }

    private(set) lazy var queryPairs: [(name: String, value: String)] = PercentDecoding.queryPairs(request.query)

    // `target` and the cookies are computed when asked, not stored: only stubs with `url`,
    // `urlPattern` or `cookies` ask, and a stored lazy field costs every request its upkeep.
    // Both are plain loops with no closure capturing `self`, which would keep the compiler from
    // allocating the context on the stack.

    /// The request target as sent: the raw path, then `?` and the query when there was one.
    var target: String {
        guard let query = request.query else { return request.path }
        return request.path + "?" + query
    }

    /// The values of cookie `name` in every `Cookie` header (`a=1; b=2`).
    func cookieValues(_ name: String) -> [String] {
        var values: [String] = []
        for header in request.headers.values(for: "Cookie") {
            for part in header.split(separator: ";") {
                let trimmed = String(part).trimmingSpaces
                if let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name {
                    values.append(String(trimmed[trimmed.index(after: equals)...]))
                }
            }
        }
        return values
    }

    private(set) lazy var bodyText: String = String(decoding: request.body, as: UTF8.self)

    private(set) lazy var bodyJSON: JSONValue? = JSONValue.parse(request.body)

    func queryValues(_ name: String) -> [String] {
        queryPairs.filter { $0.name == name }.map(\.value)
    }

    private static func uppercasedASCII(_ text: String) -> String {
        guard text.containsUTF8Byte(where: { $0 >= 97 && $0 <= 122 }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }
}
