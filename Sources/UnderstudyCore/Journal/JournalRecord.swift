/// What the engine knows about a request when it decides its answer. The entry is written from
/// it and a ``Delivery`` once the transport reports what happened on the wire.
struct JournalRecord {
    var request: HTTPRequest
    var matched: Bool
    var stubID: String?
    var responseIndex: Int?
    var scenario: ScenarioTransition?
    var rateLimited: Bool
    /// The delay applied before answering, in milliseconds (fixed plus any drawn at random).
    var delayMs: Double = 0
    /// Monotonic nanoseconds since the engine started, when the request arrived (`elapsedMs`).
    var arrivalElapsed: UInt64 = 0
    /// Wall-clock milliseconds since 1970, when the request arrived (`time`).
    var arrivalMilliseconds: Int64 = 0
}
