import Foundation

/// One thing an advance of a world's clock released, as `POST /__admin/clock` lists it: a delayed
/// response, a piece of a paced body, a Server-Sent Event, or a rate limit made whole again.
public struct FiredClockEvent: Sendable, Equatable, Decodable {
    /// `"response"`, `"bodyPiece"`, `"event"` or `"rateLimitWindow"`.
    public var kind: String
    /// When it fell due on the world's clock (ISO-8601, milliseconds).
    public var at: String
    /// The stub whose answer it was (or whose limit rolled).
    public var stub: String?
    /// The request it answered (`GET /path`), when it answered one.
    public var request: String?

    /// An event as the daemon lists it (for comparing with what an advance returned).
    public init(kind: String, at: String, stub: String? = nil, request: String? = nil) {
        self.kind = kind
        self.at = at
        self.stub = stub
        self.request = request
    }
}
