import UnderstudyHTTP

/// How an engine behaves: the unmatched status, the journal cap, sink and body limit, the clock,
/// and the admin token.
///
/// Not `Sendable`: it may hold a sink object and a clock owned by the thread driving the engine.
public struct EngineConfiguration {
    /// The status sent when no stub matches (default 404).
    public var unmatchedStatus: Int
    /// How many journal entries are kept in memory; older ones are dropped and counted.
    public var journalLimit: Int
    /// Where each journal line is also written (a JSON Lines file, say); `nil` keeps memory only.
    public var journalSink: (any JournalSink)?
    /// Where real time comes from: the source of the engine's ``WorldClock``, which serves
    /// timestamps, elapsed times and rate-limit windows (and which sessions' idle timeouts read directly).
    public var clock: any EngineClock
    /// How the engine's ``WorldClock`` starts: real time (the default), frozen, or offset.
    public var clockStart: WorldClock.Start = .real
    /// When set, every `/__admin` request must carry `Authorization: Bearer <token>`; others get
    /// 401 and change nothing. `nil` (the default) leaves the admin API open, as on loopback.
    public var adminToken: String?
    /// Seeds the generator random delays are drawn from (`--seed`); `nil` seeds it randomly.
    public var seed: UInt64?
    /// The session this engine serves (see ``SessionRegistry``): written as `"session"` in each
    /// journal entry. `nil` for the daemon's main port.
    public var sessionID: String?
    /// The PEM of the CA that signed the HTTPS listener's certificate, served at
    /// `GET /__admin/tls/ca.pem`; `nil` when the daemon has no generated CA (no `--https`, or the
    /// user's own `--tls-cert`).
    public var certificateAuthorityPEM: String?
    /// How many bytes of each response body the journal keeps (`response.body`); longer bodies are
    /// cut there and flagged `truncated`. 0 keeps none (the size is still recorded).
    public var journalBodyLimit: Int
    /// Checks every request and every stub's answer against the API's contract (`serve --openapi`);
    /// nil (the default) checks nothing and costs the request path one nil check. Sessions made
    /// from this configuration share it.
    public var contract: (any ContractChecking)?
    /// Set by `understudy record`: where `POST /__admin/recordings/stop` writes the recorded stubs.
    /// `nil` (the default) on a daemon that is not recording; the request path never reads it.
    public var recording: RecordingPlan?
    /// A session's `idempotency`: the rule its `POST` and `PATCH` stubs take when they give none
    /// of their own (nil: only stubs with `idempotency` honour keys).
    public var idempotency: IdempotencyRule?
    /// A session's `earlyRetries`: what its stubs that give none of their own do with a retry that
    /// comes before the previous answer's wait has passed (nil: `observe`).
    public var earlyRetries: EarlyRetries?
    /// A session's `webhookDefaults`: the target and secret of webhooks whose stubs give none
    /// (nil: such a webhook fails as `no-target` or `no-secret`).
    public var webhookDefaults: WebhookDefaults?
    /// Where the transport puts its outbound sender for webhooks (``TransportHooks/outbound``).
    /// A reference: sessions made from this configuration share the main port's.
    public var outbound = OutboundLink()

    /// The default ``journalBodyLimit``: 4 KiB, enough for the bodies stubs usually send while
    /// bounding the in-memory journal.
    public static let defaultJournalBodyLimit = JournalEntry.defaultBodyLimit

    /// Creates a configuration; every parameter has the documented default.
    public init(
        unmatchedStatus: Int = 404, journalLimit: Int = 100_000,
        journalSink: (any JournalSink)? = nil, clock: any EngineClock = SystemEngineClock(),
        adminToken: String? = nil, sessionID: String? = nil, seed: UInt64? = nil,
        journalBodyLimit: Int = EngineConfiguration.defaultJournalBodyLimit
    ) {
        self.unmatchedStatus = unmatchedStatus
        self.journalLimit = max(1, journalLimit)
        self.journalSink = journalSink
        self.clock = clock
        self.adminToken = adminToken
        self.journalBodyLimit = max(0, journalBodyLimit)
        self.seed = seed
        self.sessionID = sessionID
    }
}

@available(*, unavailable)
extension EngineConfiguration: Sendable {}
