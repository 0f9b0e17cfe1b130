import UnderstudyHTTP

/// The admin API on an engine alone (no responder, so no sessions): for embedders and tests.
extension StubEngine {
    /// Answers one admin request now or later: `GET /__admin/requests/wait` is a long poll the
    /// transport completes later. `reload` re-reads the stub files (`POST /__admin/reload`).
    public func adminAnswer(_ request: HTTPRequest, reload: @escaping () -> Result<Int, StubLoadFailure>) -> HTTPAnswer
    {
        AdminRoutes.standard.answer(request, engine: self, reload: reload)
    }

    /// Answers one admin request now; a wait answers with what the journal holds now, since
    /// nothing can complete it later.
    public func admin(_ request: HTTPRequest, reload: @escaping () -> Result<Int, StubLoadFailure>) -> HTTPResponse {
        AdminRoutes.standard.respond(request, engine: self, reload: reload)
    }
}
