/// What the transport talks to: routes `/__admin/*` to the admin API and everything else to the
/// stub engine.
///
/// Not `Sendable`: one thread (the transport's event loop) drives it.
public final class UnderstudyResponder: HTTPResponder {
    private let stubPaths: [String]
    /// The engine behind the responder, for callers that want the journal or stubs directly.
    public let engine: StubEngine

    /// Loads the stubs at `stubPaths` (files or directories); throws every error found.
    public init(stubPaths: [String], configuration: EngineConfiguration = EngineConfiguration()) throws(StubLoadFailure) {
        self.stubPaths = stubPaths
        self.engine = StubEngine(stubs: try StubLoader.load(paths: stubPaths), configuration: configuration)
    }

    /// Serves an already loaded stub set; `reload()` then has no paths to read and fails.
    public init(stubs: StubSet, configuration: EngineConfiguration = EngineConfiguration()) {
        self.stubPaths = []
        self.engine = StubEngine(stubs: stubs, configuration: configuration)
    }

    /// Answers a request. Admin requests go to the admin API and are not journaled; every other
    /// request is journaled before this returns.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if StubEngine.isAdminPath(request.path) {
            return engine.admin(request, reload: reload)
        }
        return engine.handle(request)
    }

    /// Journals a request the transport refused and returns what to send.
    public func reject(_ request: HTTPRequest, status: Int, reason: String) -> HTTPResponse {
        engine.reject(request, status: status, reason: reason)
    }

    /// As ``respond(to:)``, but a journaled request's entry waits in the returned ticket for the
    /// transport to report what it sent (admin requests get no ticket: they are not journaled).
    public func respondAwaitingDelivery(to request: HTTPRequest) -> (response: HTTPResponse, journal: JournalTicket?) {
        if StubEngine.isAdminPath(request.path) {
            return (engine.admin(request, reload: reload), nil)
        }
        return engine.handle(request, awaitingDelivery: true)
    }

    /// As ``reject(_:status:reason:)``, with the entry left to the transport.
    public func rejectAwaitingDelivery(_ request: HTTPRequest, status: Int, reason: String) -> (response: HTTPResponse, journal: JournalTicket?) {
        engine.reject(request, status: status, reason: reason, awaitingDelivery: true)
    }

    /// Re-reads the stub paths, all-or-nothing: on failure the current stubs stay. On success
    /// sequences, scenarios and rate limits start over; the journal is kept.
    public func reload() -> Result<Int, StubLoadFailure> {
        guard !stubPaths.isEmpty else {
            return .failure(StubLoadFailure(errors: [StubFileError(
                file: "<responder>", line: 1, column: 1, jsonPath: "",
                message: "nothing to reload: this responder was created from a stub set, not from stub paths")]))
        }
        do {
            let set = try StubLoader.load(paths: stubPaths)
            engine.replaceStubs(set)
            return .success(set.count)
        } catch {
            return .failure(error)
        }
    }

    /// How many stubs are loaded.
    public var stubCount: Int { engine.stubs.count }
}

@available(*, unavailable)
extension UnderstudyResponder: Sendable {}
