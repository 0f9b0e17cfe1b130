import UnderstudyHTTP

/// What the engine knows about a request when it decides its answer. The entry is written from
/// it and a ``Delivery`` once the transport reports what happened on the wire.
///
/// The fields are laid out to keep the record at most 128 bytes (108 now): the request path
/// moves it several times (out of `serve`, into its ticket, into the entry), and a larger struct
/// is moved with a call to `memcpy` instead of eight vector moves (+260 instructions a request,
/// measured when `idempotency` made it 136 bytes). Words first, then the optional index, then
/// the one-byte fields together; `JournalRecordLayoutTests` holds the size.
struct JournalRecord {
    var request: HTTPRequest
    var stubID: String?
    var scenario: ScenarioTransition?
    /// The delay applied before answering, in milliseconds (fixed plus any drawn at random).
    var delayMs: Double = 0
    /// Monotonic nanoseconds since the engine started, when the request arrived (`elapsedMs`).
    var arrivalElapsed: UInt64 = 0
    /// Wall-clock milliseconds since 1970, when the request arrived (`time`).
    var arrivalMilliseconds: Int64 = 0
    /// The real time of arrival (ISO-8601), written as `wallTime` when the world's clock is not
    /// real time (its `time` is then the world's); nil on a real clock, where the two agree.
    var wallTime: String? = nil
    /// What `serve --openapi` found (`openapiViolations`, and the refusal in `fail` mode); nil
    /// when nothing was checked or nothing was found.
    var contract: ContractFindings? = nil
    /// The upstream exchange of a proxied request (see ``ProxiedExchange``); nil otherwise.
    var proxied: ProxiedExchange? = nil
    /// What the stub's idempotency made of the request's key; nil for stubs without `idempotency`.
    var idempotency: IdempotencyNote? = nil
    var responseIndex: Int?
    var matched: Bool
    var rateLimited: Bool
    /// How the body was paced (`"dribble"`, `"throttle"`, `"events"`); nil when written at once.
    var stream: ResponseStreaming.Kind? = nil

    /// A record with what every request has; the rest is set by the paths that know it.
    init(
        request: HTTPRequest, matched: Bool, stubID: String?, responseIndex: Int?, scenario: ScenarioTransition?,
        rateLimited: Bool, delayMs: Double = 0
    ) {
        self.request = request
        self.matched = matched
        self.stubID = stubID
        self.responseIndex = responseIndex
        self.scenario = scenario
        self.rateLimited = rateLimited
        self.delayMs = delayMs
    }
}
