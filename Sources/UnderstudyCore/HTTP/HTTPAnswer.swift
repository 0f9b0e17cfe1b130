/// What a responder gives the transport for one request: a response to send now, or a promise
/// to answer later (a long poll such as `GET /__admin/requests/wait`).
///
/// Not `Sendable`: a deferred reply lives on the event loop that will deliver it.
public enum HTTPAnswer {
    /// Send this response now (after its `delayMs`, or carrying out its fault).
    case now(HTTPResponse)
    /// The responder answers later through this reply (see ``DeferredReply``).
    case later(DeferredReply)
}
