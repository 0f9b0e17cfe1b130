import UnderstudyStubFormat

/// What a stub does once it has served its last response: the stub format's own enum
/// (``StubFormat/AfterLast``), which the engine serves as it is.
public typealias AfterLast = StubFormat.AfterLast

/// One stub: which requests it answers and the responses it gives, in order.
public struct Stub: Sendable {
    /// Unique across everything loaded.
    public var id: String
    /// The file it came from (`"<admin>"` when posted to the admin API).
    public var file: String
    /// Free text for readers of the stub file; the engine ignores it.
    public var description: String?
    /// Which requests this stub answers.
    public var request: RequestPattern
    /// The `request` object as written (`nil` when omitted), echoed by `GET /__admin/stubs`.
    public var requestJSON: JSONValue?
    /// The responses, served in order; never empty.
    public var responses: [StubResponse]
    /// What happens after the last response.
    public var afterLast: AfterLast
    /// The scenario this stub belongs to, if any.
    public var scenario: String?
    /// The scenario state this stub requires.
    public var whenState: String?
    /// The state the scenario moves to after this stub answers.
    public var setState: String?
    /// A rate limit on this stub.
    public var rateLimit: RateLimitRule?
    /// Lower answers first (1 is highest); `nil` is the default, 5. See ``tieOrder``.
    public var priority: Int?
    /// Seconds a bearer token is valid after it was issued (`tokenExpiresIn`), on the world's
    /// clock; an older or unreadable token gets 401 (see UnderstudyCore's `TokenIssueTime`). `nil`: not checked.
    public var tokenExpiresIn: Double?
    /// The stub's idempotency keys (`idempotency`): replays, mismatches and keys in progress are
    /// answered by the engine before the stub's own answer. `nil`: keys mean nothing to it.
    public var idempotency: IdempotencyRule?
    /// What the stub does with a retry that comes before its previous answer's wait has passed
    /// (`earlyRetries`); `nil` is `.observe`, unless a session says otherwise.
    public var earlyRetries: EarlyRetries?
    /// Why this stub answers off the API's OpenAPI document on purpose (`openapi: {"skip": "why"}`):
    /// `check --openapi` lists it as skipped, and `serve --openapi` does not hold its answer to the
    /// document (the request still is). `nil`: held to it.
    public var openAPISkip: String?
    /// Where this stub goes among stubs of equal priority: after those loaded or added earlier
    /// (`.loadOrder`, the native format's rule) or before them (`.newestFirst`, for a format whose
    /// rule is that the newest stub wins a tie).
    public var tieOrder = TieOrder.loadOrder
    /// What the format adapter that decoded this stub keeps with it (another tool's mapping as
    /// written, for that tool's admin API). The model carries it without reading it.
    public var annotation: (any StubAnnotation)?
    /// Set by the decoder when the file gave no `id`, so the admin API can rename such stubs.
    package var idGenerated = false

    /// Creates a stub.
    public init(
        id: String, file: String = "<code>", description: String? = nil, request: RequestPattern = RequestPattern(),
        requestJSON: JSONValue? = nil, responses: [StubResponse], afterLast: AfterLast = .repeat,
        scenario: String? = nil, whenState: String? = nil, setState: String? = nil, rateLimit: RateLimitRule? = nil
    ) {
        self.id = id
        self.file = file
        self.description = description
        self.request = request
        self.requestJSON = requestJSON
        self.responses = responses
        self.afterLast = afterLast
        self.scenario = scenario
        self.whenState = whenState
        self.setState = setState
        self.rateLimit = rateLimit
    }
}

extension Stub {
    /// Where a stub goes among stubs of equal priority.
    public enum TieOrder: Sendable {
        /// After the stubs loaded or added before it (the native format's rule).
        case loadOrder
        /// Before the stubs loaded or added before it: the newest such stub wins the tie.
        case newestFirst
    }

    /// The order stubs are tried in, as a rank per stub: by priority (lower first, default 5);
    /// at equal priority, `.loadOrder` stubs in load order, then `.newestFirst` stubs, most
    /// recently added first. Without priorities or `.newestFirst` the rank is the load position.
    package static func ranks(of stubs: [Stub]) -> [Int] {
        guard stubs.contains(where: { $0.priority != nil || $0.tieOrder == .newestFirst }) else {
            return Array(stubs.indices)
        }
        let order = stubs.indices.sorted { a, b in
            let x = stubs[a], y = stubs[b]
            let newerA = x.tieOrder == .newestFirst, newerB = y.tieOrder == .newestFirst
            let keyA = (x.priority ?? 5, newerA ? 1 : 0, newerA ? -a : a)
            let keyB = (y.priority ?? 5, newerB ? 1 : 0, newerB ? -b : b)
            return keyA < keyB
        }
        var ranks = Array(repeating: 0, count: stubs.count)
        for (rank, index) in order.enumerated() { ranks[index] = rank }
        return ranks
    }
}

/// What a format adapter keeps with a stub it decoded, for its own use (its admin API, its
/// converter): the model stores it and never reads it, so the model knows no other tool's format.
/// A class, so carrying it costs a stub one reference.
public protocol StubAnnotation: AnyObject, Sendable {}
