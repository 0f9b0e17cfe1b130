import UnderstudyHTTP

/// What the engine knows about a request when it decides its answer. The entry is written from
/// it and a ``Delivery`` once the transport reports what happened on the wire.
///
/// At most 128 bytes (`JournalRecordLayoutTests`): the request path moves the record several
/// times (out of `serve`, into its ticket, into the entry), and past 128 bytes each move became
/// a call to `memcpy` instead of eight vector moves (+260 instructions a request in the callgrind
/// gate when `idempotency` made it 136 bytes). `rateLimited` sits beside `matched` for that: the
/// two flags share one word's padding. Keep the memberwise initializer (an explicit one made the
/// engine copy the record instead of moving it: +150 instructions a request).
struct JournalRecord {
    var request: HTTPRequest
    var matched: Bool
    var rateLimited: Bool
    var stubID: String?
    var responseIndex: Int?
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
    /// How the body was paced (`"dribble"`, `"throttle"`, `"events"`); nil when written at once.
    var stream: ResponseStreaming.Kind? = nil
    /// What `serve --openapi` found (`openapiViolations`, and the refusal in `fail` mode); nil
    /// when nothing was checked or nothing was found.
    var contract: ContractFindings? = nil
    /// The upstream exchange of a proxied request (see ``ProxiedExchange``); nil otherwise.
    var proxied: ProxiedExchange? = nil
    /// What a guarded stub made of the request (its idempotency key, its retry verdict); nil for
    /// ordinary stubs.
    var notes: GuardNotes? = nil
}

extension JournalRecord {
    /// What the stub's idempotency made of the request's key; nil for stubs without `idempotency`.
    var idempotency: IdempotencyNote? {
        get { notes?.idempotency }
        set { notes = GuardNotes(idempotency: newValue, retry: notes?.retry) }
    }

    /// Whether the request waited what the previous answer asked; nil when none asked.
    var retry: RetryVerdict? {
        get { notes?.retry }
        set { notes = GuardNotes(idempotency: notes?.idempotency, retry: newValue) }
    }
}
