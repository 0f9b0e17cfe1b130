/// What the engine knows about a request when it journals it.
struct JournalRecord {
    var request: HTTPRequest
    var matched: Bool
    var stubID: String?
    var responseIndex: Int?
    var status: Int
    var fault: Fault?
    var scenario: ScenarioTransition?
    var rateLimited: Bool
    /// The delay applied before answering, in milliseconds (fixed plus any drawn at random).
    var delayMs: Double = 0
}
