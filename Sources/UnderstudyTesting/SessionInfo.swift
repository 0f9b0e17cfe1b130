import Foundation

/// A session on a daemon, as `POST /__admin/sessions` and `GET /__admin/sessions` describe it.
public struct SessionInfo: Codable, Sendable, Equatable {
    /// The session's id (for `DELETE /__admin/sessions/{id}` and the journal's `session` field).
    public var id: String
    /// The free-text name given at creation.
    public var name: String?
    /// The session's own base URL (`http://127.0.0.1:PORT`).
    public var url: String
    /// The session's port.
    public var port: Int
    /// The session's HTTPS base URL (`https://127.0.0.1:PORT`), when it was created with `tls`.
    public var httpsUrl: String?
    /// The session's HTTPS port, when it was created with `tls`.
    public var httpsPort: Int?
    /// The HTTP/2 stream cap its ports announce, when it was created with one.
    public var maxConcurrentStreams: Int?
    /// When it was created, ISO 8601.
    public var created: String
    /// Requests it has answered (in the list only).
    public var requests: Int?
    /// Milliseconds since its last request (in the list only).
    public var idleMs: Double?

    /// ``httpsUrl`` as a URL: where the session answers over TLS with the certificate it asked for.
    public var httpsURL: URL? { httpsUrl.flatMap(URL.init(string:)) }
}
