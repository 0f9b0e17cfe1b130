/// What a responder asks of the transport that serves it besides answering requests, announced
/// once (``HTTPResponder/transportHooks``) and read at start-up: the transport calls these and
/// never casts its responder to find out what it is.
///
/// Not `Sendable`: the responder's event-loop thread is the only one that calls them.
public struct TransportHooks {
    /// Told each base URL a listener serves the responder on (`http://HOST:PORT`, then
    /// `https://HOST:PORT` with `secure` once a TLS listener opens), for `{{server.url}}`.
    public var served: ((_ url: String, _ secure: Bool) -> Void)?
    /// Brackets the journal writes of one event-loop pass (see ``JournalBatching``); nil when
    /// the journal writes every line as it is made.
    public var journalBatching: (any JournalBatching)?
    /// Sessions the responder hosts on the transport's loop: the transport opens their ports and
    /// reclaims idle ones; nil when it has none.
    public var sessions: (any HostedSessions)?
    /// Where the transport puts its outbound sender (``OutboundSending``) for the responder's
    /// webhooks; nil when the responder sends none.
    public var outbound: OutboundLink?

    /// Hooks that ask for nothing but those given.
    public init(
        served: ((_ url: String, _ secure: Bool) -> Void)? = nil, journalBatching: (any JournalBatching)? = nil,
        sessions: (any HostedSessions)? = nil, outbound: OutboundLink? = nil
    ) {
        self.outbound = outbound
        self.served = served
        self.journalBatching = journalBatching
        self.sessions = sessions
    }
}

/// Sessions hosted on a transport's event loop (the engine's session registry): what the
/// transport needs of them to open their ports, reclaim idle ones and close them when it stops.
public protocol HostedSessions: AnyObject {
    /// The transport that opens the sessions' listeners; set by the transport that hosts them.
    var host: (any SessionHosting)? { get set }
    /// How often the transport calls ``reclaimIdle()``; nil: never (sessions do not expire).
    var sweepIntervalSeconds: Double? { get }
    /// Deletes the sessions idle past their timeout; returns their ids.
    @discardableResult
    func reclaimIdle() -> [String]
    /// Closes every session's listeners (the transport is stopping).
    func closeAll()
}
