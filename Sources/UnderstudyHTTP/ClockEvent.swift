/// One thing an advance of a world's clock set off, as `POST /__admin/clock` lists it.
public struct ClockEvent: Sendable, Equatable {
    /// What fell due.
    public enum Kind: String, Sendable {
        /// A delayed response (or a delayed fault) was released.
        case response
        /// A piece of a dribbled or throttled body was sent.
        case bodyPiece
        /// A Server-Sent Event was sent.
        case event
        /// A stub's rate limit became whole again (its window rolled, or its bucket refilled).
        case rateLimitWindow
        /// A webhook delivery attempt was sent (its request names the delivery).
        case webhook
    }

    /// What fell due.
    public var kind: Kind
    /// The stub whose answer it was (or whose limit rolled).
    public var stubID: String?
    /// The request it answered (`GET /path`), when it answered one.
    public var request: String?
    /// When it fell due on the world's clock, in seconds since 1970 (set by the clock as it fires).
    public var at: Double

    /// An event; `at` is filled in by the clock when it fires.
    public init(kind: Kind, stubID: String? = nil, request: String? = nil, at: Double = 0) {
        self.kind = kind
        self.stubID = stubID
        self.request = request
        self.at = at
    }
}
