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
    /// Lower answers first (1 is highest); `nil` is the default, 5. See ``newerWins``.
    public var priority: Int?
    /// Seconds a bearer token is valid after it was issued (`tokenExpiresIn`), on the world's
    /// clock; an older or unreadable token gets 401 (see ``TokenIssueTime``). `nil`: not checked.
    public var tokenExpiresIn: Double?
    /// Among stubs of equal priority, whether this one is tried before stubs loaded or added
    /// earlier (WireMock's rule) instead of after them (Understudy's). At equal priority every
    /// stub with `newerWins == false` is tried before every stub with `newerWins == true`.
    public var newerWins = false
    /// Free-form data kept with the stub and echoed by the admin API (WireMock's `metadata`).
    public var metadata: JSONValue?
    /// The stub as written in a foreign format (a WireMock mapping), for admin APIs that echo it.
    public var sourceJSON: JSONValue?
    /// Set by the decoder when the file gave no `id`, so the admin API can rename such stubs.
    var idGenerated = false

    /// Creates a stub.
    public init(id: String, file: String = "<code>", description: String? = nil, request: RequestPattern = RequestPattern(),
                requestJSON: JSONValue? = nil, responses: [StubResponse], afterLast: AfterLast = .repeat,
                scenario: String? = nil, whenState: String? = nil, setState: String? = nil, rateLimit: RateLimitRule? = nil) {
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
    /// The order stubs are tried in, as a rank per stub: by priority (lower first, default 5);
    /// at equal priority, stubs with `newerWins == false` in load order, then stubs with
    /// `newerWins == true`, most recently added first. Without priorities or `newerWins` the
    /// rank is the load position.
    static func ranks(of stubs: [Stub]) -> [Int] {
        guard stubs.contains(where: { $0.priority != nil || $0.newerWins }) else { return Array(stubs.indices) }
        let order = stubs.indices.sorted { a, b in
            let x = stubs[a], y = stubs[b]
            let keyA = (x.priority ?? 5, x.newerWins ? 1 : 0, x.newerWins ? -a : a)
            let keyB = (y.priority ?? 5, y.newerWins ? 1 : 0, y.newerWins ? -b : b)
            return keyA < keyB
        }
        var ranks = Array(repeating: 0, count: stubs.count)
        for (rank, index) in order.enumerated() { ranks[index] = rank }
        return ranks
    }
}
