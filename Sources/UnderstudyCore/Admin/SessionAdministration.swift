import UnderstudyHTTP

/// The sessions admin routes (`/__admin/sessions…`, main port only) talk to the session registry
/// through this, so the admin API does not depend on how sessions are hosted.
protocol SessionAdministration: AnyObject {
    /// `GET /__admin/sessions`.
    func list() -> HTTPResponse
    /// `POST /__admin/sessions`: 201 with the new session, or 400/503 and nothing created.
    func create(_ body: [UInt8]) -> HTTPResponse
    /// `GET /__admin/sessions/{id}`.
    func describe(id: String) -> HTTPResponse
    /// `DELETE /__admin/sessions/{id}`.
    func delete(_ id: String) -> HTTPResponse
}
