import UnderstudyHTTP

/// What a handler gets: the request, the path's parameters, and the engine behind the narrow
/// ``EngineControl`` interface (plus the responder's reload and sessions, which only some routes use).
package struct AdminCall {
    package let request: HTTPRequest
    let parameters: [String]
    let engine: any EngineControl
    /// Re-reads the stub paths (`POST /__admin/reload`).
    package let reload: () -> Result<Int, StubLoadFailure>
    /// The sessions the main port hosts; nil on a session's port or when sessions are off.
    let sessions: (any SessionAdministration)?
    /// The table that routed the call (its adapters' hooks: journal fields, scenario fields, reset).
    let routes: AdminRoutes

    /// The first path parameter.
    package var parameter: String { parameters[0] }
}
