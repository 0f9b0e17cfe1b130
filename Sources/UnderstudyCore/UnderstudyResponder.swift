// The engine's public API speaks in the compiled stub model and its loader (`Stub`, `StubSet`,
// `StubLoader`: UnderstudyStubs), JSON values and compiled regexes (``ValueMatcher/matches(_:)``),
// requests, responses and journal tickets (UnderstudyHTTP) and compiled response templates
// (``StubResponse/template``, UnderstudyTemplates), so its users see those modules through this one.
// These re-exports are edges of the layer table: ARCHITECTURE.md lists them under "Re-exports" and
// scripts/check-layers holds every importer of Core to them.
@_exported import UnderstudyHTTP
@_exported import UnderstudyJSON
@_exported import UnderstudyRegex
@_exported import UnderstudyStubs
@_exported import UnderstudyTemplates

/// What the transport talks to: routes `/__admin/*` to the admin API and everything else to the
/// stub engine. The main port's responder can also host sessions (``enableSessions(_:)``), each
/// a responder of its own made by ``init(session:configuration:)``.
///
/// Not `Sendable`: one thread (the transport's event loop) drives it.
/// Hot stored properties are `@exclusivity(unchecked)`: only the event-loop thread touches them and
/// no access overlaps another, so the runtime's dynamic exclusivity check (~65 instructions per
/// access, several per request) buys nothing.
public final class UnderstudyResponder: HTTPResponder {
    private let stubPaths: [String]
    /// How `stubPaths` are read, again on every reload.
    private let loadOptions: StubLoadOptions
    /// The stubs last loaded from `stubPaths` (without stubs posted to the admin API): what a
    /// new session starts with.
    private(set) var fileStubs: StubSet
    /// The engine behind the responder, for callers that want the journal or stubs directly.
    public let engine: StubEngine
    /// The sessions this (main-port) responder hosts; nil until ``enableSessions(_:)``.
    @exclusivity(unchecked) public private(set) var sessions: SessionRegistry?
    /// Whether this responder serves a session's port (whose admin API has no `/sessions`).
    private let isSession: Bool

    /// Loads the stubs at `stubPaths` (files or directories); throws every error found.
    public init(
        stubPaths: [String], loadOptions: StubLoadOptions = StubLoadOptions(),
        configuration: EngineConfiguration = EngineConfiguration()
    ) throws(StubLoadFailure) {
        self.stubPaths = stubPaths
        self.loadOptions = loadOptions
        self.fileStubs = try StubLoader.load(paths: stubPaths, options: loadOptions)
        self.engine = StubEngine(stubs: fileStubs, configuration: configuration)
        self.isSession = false
    }

    /// Serves an already loaded stub set; `reload()` then has no paths to read and fails.
    public init(stubs: StubSet, configuration: EngineConfiguration = EngineConfiguration()) {
        self.stubPaths = []
        self.loadOptions = StubLoadOptions()
        self.fileStubs = stubs
        self.engine = StubEngine(stubs: stubs, configuration: configuration)
        self.isSession = false
    }

    /// A session's responder: `main`'s file-loaded stubs in fresh state, its stub paths (so the
    /// session's own reload re-reads them), and `configuration` (with the session's id).
    init(session main: UnderstudyResponder, configuration: EngineConfiguration) {
        self.stubPaths = main.stubPaths
        self.loadOptions = main.loadOptions
        self.fileStubs = main.fileStubs
        self.engine = StubEngine(stubs: main.fileStubs, configuration: configuration)
        self.isSession = true
    }

    /// Lets this responder create sessions on `POST /__admin/sessions`. The transport then
    /// becomes the registry's ``SessionRegistry/host`` (see `HTTPServer.hostSessions`).
    @discardableResult
    public func enableSessions(_ limits: SessionLimits = SessionLimits()) -> SessionRegistry {
        if let sessions { return sessions }
        let registry = SessionRegistry(main: self, limits: limits)
        sessions = registry
        return registry
    }

    /// Answers a request. Admin requests go to the admin API and are not journaled; every other
    /// request is journaled before this returns. A long poll answered here gets what it has now.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if AdminRoutes.isAdminPath(request.path) {
            return AdminRoutes.standard.respond(
                request, engine: engine, isSession: isSession, sessions: sessions, reload: reload)
        }
        return engine.handle(request)
    }

    /// The base URL this responder is served on (`http://127.0.0.1:PORT`), which templates read as
    /// `{{server.url}}`. The transport sets it when it binds the port (a session's own port for a
    /// session; an `https` URL for a TLS listener); nil falls back to the request's `Host` header.
    public var serverURL: String? {
        get { engine.serverURL }
        set { engine.serverURL = newValue }
    }

    /// The HTTPS base URL (`https://127.0.0.1:PORT`) for `{{server.url}}` in requests that arrive
    /// over TLS; set by the transport's HTTPS listener for this responder.
    public var secureServerURL: String? {
        get { engine.secureServerURL }
        set { engine.secureServerURL = newValue }
    }

    /// The request header that sends a main-port request to a session instead, for the rare
    /// client that cannot change its base URL.
    public static let sessionHeader = "Understudy-Session"

    /// Answers a request now, or later for `GET /__admin/requests/wait`. On the main port, a
    /// request with an `Understudy-Session: ID` header is the session's, exactly as if it had
    /// been sent to the session's port. Journals before returning (see
    /// ``answerAwaitingDelivery(_:)`` for a transport's version).
    public func answer(_ request: HTTPRequest) -> HTTPAnswer {
        let (answer, ticket) = answerAwaitingDelivery(request)
        if case .now(let response) = answer { ticket?.commit(planned: response) }
        return answer
    }

    /// As ``answer(_:)``, but a journaled request's entry waits in the returned ticket for the
    /// transport to report what it sent (admin requests get no ticket: they are not journaled).
    public func answerAwaitingDelivery(_ request: HTTPRequest) -> (answer: HTTPAnswer, journal: JournalTicket?) {
        if let sessions, let id = request.headers[Self.sessionHeader] {
            guard let session = sessions.session(id) else {
                let reason =
                    "no session with id `\(id)` (from the \(Self.sessionHeader) header); it may have been deleted or reclaimed after --session-idle-timeout"
                if AdminRoutes.isAdminPath(request.path) {
                    return (
                        .now(
                            AdminRoutes.authorizationRefusal(request, engine.configuration)
                                ?? AdminResponse.error(404, reason)), nil
                    )
                }
                let (response, ticket) = engine.reject(request, status: 404, reason: reason, awaitingDelivery: true)
                return (.now(response), ticket)
            }
            return session.answerAwaitingDelivery(request)
        }
        if AdminRoutes.isAdminPath(request.path) {
            return (
                AdminRoutes.standard.answer(
                    request, engine: engine, isSession: isSession, sessions: sessions, reload: reload), nil
            )
        }
        let (response, ticket) = engine.handle(request, awaitingDelivery: true)
        return (.now(response), ticket)
    }

    /// Journals a request the transport refused and returns what to send.
    public func reject(_ request: HTTPRequest, status: Int, reason: String) -> HTTPResponse {
        engine.reject(request, status: status, reason: reason)
    }

    /// As ``reject(_:status:reason:)``, with the entry left to the transport.
    public func rejectAwaitingDelivery(_ request: HTTPRequest, status: Int, reason: String) -> (
        response: HTTPResponse, journal: JournalTicket?
    ) {
        engine.reject(request, status: status, reason: reason, awaitingDelivery: true)
    }

    /// Re-reads the stub paths, all-or-nothing: on failure the current stubs stay. On success
    /// sequences, scenarios and rate limits start over; the journal is kept. Sessions already
    /// alive keep their stubs; sessions created afterwards start from the reloaded ones.
    public func reload() -> Result<Int, StubLoadFailure> {
        guard !stubPaths.isEmpty else {
            return .failure(
                StubLoadFailure(errors: [
                    StubFileError(
                        file: "<responder>", line: 1, column: 1, jsonPath: "",
                        message: "nothing to reload: this responder was created from a stub set, not from stub paths")
                ]))
        }
        do {
            let set = try StubLoader.load(paths: stubPaths, options: loadOptions)
            fileStubs = set
            engine.replaceStubs(set)
            return .success(set.count)
        } catch {
            return .failure(error)
        }
    }

    /// How many stubs are loaded.
    public var stubCount: Int { engine.stubs.count }

    /// The warnings of the last load from the stub paths (WireMock leniencies and skipped
    /// mappings), for the daemon to print.
    public var loadWarnings: [StubFileError] { fileStubs.warningLines }
}

@available(*, unavailable)
extension UnderstudyResponder: Sendable {}

/// The responder hosts sessions, each a responder of its own made from this one.
extension UnderstudyResponder: SessionResponder {
    func makeSessionResponder(configuration: EngineConfiguration) -> any SessionResponder {
        UnderstudyResponder(session: self, configuration: configuration)
    }
}

/// What the responder asks of its transport, announced rather than found by casting: the URLs it is
/// served on (for `{{server.url}}`), batches for its journal file's writes, its sessions' ports, and
/// the sender its webhooks go out through.
extension UnderstudyResponder {
    public var transportHooks: TransportHooks {
        TransportHooks(
            served: { [weak self] url, secure in
                if secure { self?.secureServerURL = url } else { self?.serverURL = url }
            },
            journalBatching: engine.recorder.sinkBatching,
            sessions: sessions, outbound: engine.configuration.outbound)
    }
}
