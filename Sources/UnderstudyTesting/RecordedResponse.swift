import Foundation

/// What the daemon sent back for a journaled request: the status line, the header fields as
/// written (including the `Date` and `Content-Length` the server adds), and the body, kept up to
/// the daemon's `--journal-body-limit`.
public struct RecordedResponse: Codable, Sendable, Equatable {
    /// The status line's code.
    public var status: Int
    /// Lower-cased header names → every value, in order.
    public var headers: [String: [String]]
    /// How many body bytes were sent (all of them, however many the journal kept).
    public var bodySize: Int
    /// The kept body as text, when it is UTF-8.
    public var body: String?
    /// The kept body, base64-encoded, when it is not UTF-8.
    public var bodyBase64: String?
    /// Whether the body was longer than the journal keeps (``bodyData`` is then its start).
    public var truncated: Bool

    /// The first value of header `name` (any case).
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]?.first
    }

    /// The kept body bytes, whichever way they were recorded.
    public var bodyData: Data {
        if let bodyBase64, let data = Data(base64Encoded: bodyBase64) { return data }
        return Data((body ?? "").utf8)
    }
}
