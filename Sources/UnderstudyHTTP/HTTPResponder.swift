/// The seam between a transport and whatever answers requests.
///
/// A responder is driven by one thread at a time, the transport's event loop, so it is not
/// `Sendable`: the compiler keeps it on the thread that owns it.
public protocol HTTPResponder: AnyObject {
    /// Answers a request. Anything the responder records (the journal) is recorded before this
    /// returns, so a client that has its response can always read its request back.
    func respond(to request: HTTPRequest) -> HTTPResponse

    /// Answers a request now or later. The transport calls this; a responder that never defers
    /// gets the default, which is ``respond(to:)``.
    func answer(_ request: HTTPRequest) -> HTTPAnswer

    /// Records a request the transport refused on its own (a body over the limit, say) and returns
    /// the response to send, so refused requests are journaled like any other.
    func reject(_ request: HTTPRequest, status: Int, reason: String) -> HTTPResponse

    /// ``answer(_:)`` for a transport that reports what it delivered. When the request is
    /// journaled, the ticket carries its entry: the transport must ``JournalTicket/commit(_:)``
    /// it exactly once, before any byte of the answer reaches the socket (or when the client or
    /// the server goes away first). A nil ticket means nothing waits (admin requests, or a
    /// responder that journals in ``answer(_:)``, the default).
    func answerAwaitingDelivery(_ request: HTTPRequest) -> (answer: HTTPAnswer, journal: JournalTicket?)

    /// ``reject(_:status:reason:)`` with the journal entry left to the transport, as in
    /// ``answerAwaitingDelivery(_:)``.
    func rejectAwaitingDelivery(_ request: HTTPRequest, status: Int, reason: String) -> (
        response: HTTPResponse, journal: JournalTicket?
    )

    /// The HTTP/2 stream cap (`SETTINGS_MAX_CONCURRENT_STREAMS`) for connections this responder
    /// answers; nil (the default) leaves the daemon's (`--max-concurrent-streams`).
    var maxConcurrentStreams: Int? { get }

    /// What else the responder asks of the transport that serves it (where it is served, journal
    /// batches, sessions' ports), read once when the transport starts; the default asks nothing.
    var transportHooks: TransportHooks { get }
}

extension HTTPResponder {
    /// No stream cap of its own: the daemon's applies.
    public var maxConcurrentStreams: Int? { nil }

    /// Asks nothing of the transport beyond answering requests.
    public var transportHooks: TransportHooks { TransportHooks() }

    public func answerAwaitingDelivery(_ request: HTTPRequest) -> (answer: HTTPAnswer, journal: JournalTicket?) {
        (answer(request), nil)
    }

    public func rejectAwaitingDelivery(_ request: HTTPRequest, status: Int, reason: String) -> (
        response: HTTPResponse, journal: JournalTicket?
    ) {
        (reject(request, status: status, reason: reason), nil)
    }
}

extension HTTPResponder {
    public func answer(_ request: HTTPRequest) -> HTTPAnswer {
        .now(respond(to: request))
    }
}
