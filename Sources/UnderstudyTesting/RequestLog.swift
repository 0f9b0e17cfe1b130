import Foundation

/// The journal, as `GET /__admin/requests` returns it.
public struct RequestLog: Codable, Sendable {
    /// Matching entries, in ascending `seq`, after `limit`.
    public var requests: [RecordedRequest]
    /// How many entries matched before `limit`.
    public var total: Int
    /// Entries evicted by the in-memory cap since start or reset.
    public var dropped: Int
}
