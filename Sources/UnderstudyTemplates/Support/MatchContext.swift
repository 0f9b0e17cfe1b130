import UnderstudyHTTP
import UnderstudyJSON

/// One request prepared for matching. Derived forms (decoded path, query pairs, body text and JSON)
/// are computed at most once, and only if some stub asks for them.
///
/// The engine keeps one context and reloads it for each request (``load(_:)``, then
/// ``unload()``), so no context is allocated per request. Other callers (the admin API,
/// templates, tests) make a context of their own with ``init(_:)``.
/// Stored properties are `@exclusivity(unchecked)`: one thread uses a context, and no access
/// overlaps another. Other modules (the engine in UnderstudyCore) read them through the getters
/// below, never as stored properties: the compiler does not carry `@exclusivity(unchecked)` across
/// a module boundary, so a direct read from Core paid the runtime's exclusivity check (~60
/// instructions, three per request on the static path: callgrind, `scripts/bench --gate`).
package final class MatchContext {
    @exclusivity(unchecked) private var storedRequest: HTTPRequest
    @exclusivity(unchecked) private var storedMethod: String
    @exclusivity(unchecked) private var storedPath: String

    /// The request as received.
    package var request: HTTPRequest { storedRequest }
    /// The method upper-cased, for case-insensitive comparison.
    package var method: String { storedMethod }
    /// The path percent-decoded.
    package var path: String { storedPath }

    package init(_ request: HTTPRequest) {
        self.storedRequest = request
        self.storedMethod = Self.uppercasedASCII(request.method)
        self.storedPath = PercentDecoding.decodePath(request.path)
    }

    /// An empty context for the engine to ``load(_:)`` requests into.
    package init() {
        self.storedRequest = .empty
        self.storedMethod = ""
        self.storedPath = ""
    }

    /// Prepares the context for `request`.
    package func load(_ request: HTTPRequest) {
        storedRequest = request
        storedMethod = Self.uppercasedASCII(request.method)
        storedPath = PercentDecoding.decodePath(request.path)
    }

    /// Lets go of the request and of everything derived from it, so a reused context holds no
    /// request (or its body) between requests.
    package func unload() {
        storedRequest = .empty
        if cachedQueryPairs != nil { cachedQueryPairs = nil }
        if cachedBodyText != nil { cachedBodyText = nil }
        if cachedBodyJSON != nil { cachedBodyJSON = nil }
    }

    // Derived forms, cached on first use. Plain optionals rather than `lazy` so a reused context
    // can drop them (``unload()``).
    @exclusivity(unchecked) private var cachedQueryPairs: [(name: String, value: String)]?
    @exclusivity(unchecked) private var cachedBodyText: String?
    @exclusivity(unchecked) private var cachedBodyJSON: JSONValue??

    package var queryPairs: [(name: String, value: String)] {
        if let cachedQueryPairs { return cachedQueryPairs }
        let pairs = PercentDecoding.queryPairs(request.query)
        cachedQueryPairs = pairs
        return pairs
    }

    // `target` and the cookies are computed when asked, not stored: only stubs with `url`,
    // `urlPattern` or `cookies` ask, and a stored field costs every request its upkeep.

    /// The request target as sent: the raw path, then `?` and the query when there was one.
    package var target: String {
        guard let query = request.query else { return request.path }
        return request.path + "?" + query
    }

    /// The values of cookie `name` in every `Cookie` header (`a=1; b=2`).
    package func cookieValues(_ name: String) -> [String] {
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

    package var bodyText: String {
        if let cachedBodyText { return cachedBodyText }
        let text = String(decoding: request.body, as: UTF8.self)
        cachedBodyText = text
        return text
    }

    package var bodyJSON: JSONValue? {
        if let cachedBodyJSON { return cachedBodyJSON }
        let json = JSONValue.parse(request.body)
        cachedBodyJSON = .some(json)
        return json
    }

    package func queryValues(_ name: String) -> [String] {
        queryPairs.filter { $0.name == name }.map(\.value)
    }

    private static func uppercasedASCII(_ text: String) -> String {
        guard text.containsUTF8Byte(where: { $0 >= 97 && $0 <= 122 }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }
}
