import Foundation

/// Filters for `GET /__admin/requests`; `nil` means "don't filter on this".
public struct RequestFilter: Sendable, Equatable {
    /// Only entries answered by the stub with this id.
    public var stub: String?
    /// Only entries with this method.
    public var method: String?
    /// Only entries with this path (raw or percent-decoded).
    public var path: String?
    /// Only matched (`true`) or unmatched (`false`) entries.
    public var matched: Bool?
    /// Keep entries with `seq` greater than this.
    public var since: Int?
    /// At most this many entries, the first after filtering.
    public var limit: Int?

    /// A filter; `nil` leaves a condition out.
    public init(
        stub: String? = nil, method: String? = nil, path: String? = nil, matched: Bool? = nil,
        since: Int? = nil, limit: Int? = nil
    ) {
        self.stub = stub
        self.method = method
        self.path = path
        self.matched = matched
        self.since = since
        self.limit = limit
    }

    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let stub { items.append(URLQueryItem(name: "stub", value: stub)) }
        if let method { items.append(URLQueryItem(name: "method", value: method)) }
        if let path { items.append(URLQueryItem(name: "path", value: path)) }
        if let matched { items.append(URLQueryItem(name: "matched", value: matched ? "true" : "false")) }
        if let since { items.append(URLQueryItem(name: "since", value: String(since))) }
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        return items
    }
}
