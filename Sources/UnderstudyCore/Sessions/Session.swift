import UnderstudyHTTP

/// One session: a private Understudy (its own responder and engine) behind its own port. It stands between the transport and the responder to note activity for the idle
/// timeout and to count the requests it was sent.
///
/// Not `Sendable`: the event loop drives it.
final class Session: HTTPResponder {
    let id: String
    let name: String?
    /// Wall-clock creation time, as ISO-8601 for the admin API.
    let created: String
    let responder: any SessionResponder
    /// The session's port; nil once closed. Holds this session as its responder until closed.
    var listener: (any SessionListener)?
    /// The session's HTTPS port, when it asked for one (`"tls"`); closed with the session.
    var secureListener: (any SessionListener)?
    /// The HTTP/2 stream cap its ports announce (`"maxConcurrentStreams"`); nil: the daemon's.
    var maxConcurrentStreams: Int?
    /// Monotonic nanoseconds of the last request (or of creation).
    var lastActivity: UInt64
    /// Requests sent to the session's stubs, refused ones included (admin calls are not counted);
    /// unlike the journal, a `reset` does not restart it.
    private(set) var requests = 0
    private let clock: any EngineClock

    init(id: String, name: String?, responder: any SessionResponder, clock: any EngineClock) {
        self.id = id
        self.name = name
        self.responder = responder
        self.clock = clock
        self.created = TimeFormatting.iso8601Milliseconds(clock.now.timeIntervalSince1970)
        self.lastActivity = clock.monotonicNanoseconds
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        note(request)
        return responder.respond(to: request)
    }

    func answer(_ request: HTTPRequest) -> HTTPAnswer {
        note(request)
        return responder.answer(request)
    }

    func reject(_ request: HTTPRequest, status: Int, reason: String) -> HTTPResponse {
        note(request)
        return responder.reject(request, status: status, reason: reason)
    }

    func answerAwaitingDelivery(_ request: HTTPRequest) -> (answer: HTTPAnswer, journal: JournalTicket?) {
        note(request)
        return responder.answerAwaitingDelivery(request)
    }

    func rejectAwaitingDelivery(_ request: HTTPRequest, status: Int, reason: String) -> (
        response: HTTPResponse, journal: JournalTicket?
    ) {
        note(request)
        return responder.rejectAwaitingDelivery(request, status: status, reason: reason)
    }

    /// Milliseconds since the last request.
    func idleMilliseconds(now: UInt64) -> Int {
        Int((now &- lastActivity) / 1_000_000)
    }

    /// Closes the port (and its connections) and breaks the session ↔ listener cycle.
    func close() {
        let listener = self.listener
        let secureListener = self.secureListener
        self.listener = nil
        self.secureListener = nil
        listener?.close()
        secureListener?.close()
    }

    private func note(_ request: HTTPRequest) {
        lastActivity = clock.monotonicNanoseconds
        if !AdminRoutes.isAdminPath(request.path) { requests += 1 }
    }
}

/// What sessions need of a responder: the main port's makes each session's (its file-loaded
/// stubs in fresh state), and a session's has an engine for posted stubs and base URLs for
/// `{{server.url}}`. The responder that hosts sessions conforms; sessions never name it, so they
/// sit below it in the layering.
protocol SessionResponder: HTTPResponder {
    /// The engine behind the responder.
    var engine: StubEngine { get }
    /// `{{server.url}}` for requests over plain HTTP.
    var serverURL: String? { get set }
    /// `{{server.url}}` for requests over HTTPS.
    var secureServerURL: String? { get set }
    /// A new session's responder, made from this (main-port) one, with `configuration`.
    func makeSessionResponder(configuration: EngineConfiguration) -> any SessionResponder
}
