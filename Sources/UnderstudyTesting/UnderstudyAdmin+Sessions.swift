import Foundation

extension UnderstudyAdmin {
    /// `POST /__admin/sessions` (on a daemon's main port): a new session with its own port, in
    /// fresh state, with the daemon's file stubs plus `stubs` (stub objects, added all-or-nothing
    /// as `POST /__admin/stubs` adds them). Most tests want `Understudy.session(stubs:)`, which
    /// returns a handle that deletes the session when done.
    ///
    /// With `tls`, the session also gets an HTTPS port (``SessionInfo/httpsURL``) presenting that
    /// certificate; the daemon must serve HTTPS (`--https`, as the process-wide one does), or the
    /// call fails with the daemon's 400 saying so.
    ///
    /// With `clock`, the session's clock starts frozen or offset (see ``ClockMode``).
    ///
    /// With `maxConcurrentStreams` (1 to 10000), the session's ports announce that HTTP/2 stream
    /// cap instead of the daemon's `--max-concurrent-streams`, and refuse a stream over it with
    /// `RST_STREAM REFUSED_STREAM`.
    ///
    /// With `webhookURL` and `webhookSecret` (`webhookDefaults`), the session's webhooks whose stubs
    /// give no `url`, or whose `signing` gives no secret, use these (docs/webhooks.md).
    public func createSession(
        name: String? = nil, stubs: [JSONValue] = [],
        tls: TLSCertificateMode? = nil, clock: ClockMode? = nil, maxConcurrentStreams: Int? = nil,
        webhookURL: String? = nil, webhookSecret: String? = nil
    ) async throws -> SessionInfo {
        var body: [JSONMember] = []
        if let name { body.append(JSONMember("name", .string(name))) }
        if !stubs.isEmpty { body.append(JSONMember("stubs", .array(stubs))) }
        if let tls { body.append(JSONMember("tls", .string(tls.rawValue))) }
        if let clock { body.append(JSONMember("clock", clock.json)) }
        if let maxConcurrentStreams { body.append(JSONMember("maxConcurrentStreams", JSONValue(maxConcurrentStreams))) }
        if webhookURL != nil || webhookSecret != nil {
            var defaults: [JSONMember] = []
            if let webhookURL { defaults.append(JSONMember("url", .string(webhookURL))) }
            if let webhookSecret { defaults.append(JSONMember("secret", .string(webhookSecret))) }
            body.append(JSONMember("webhookDefaults", .object(defaults)))
        }
        return try await send("POST", "/__admin/sessions", body: Data(JSONValue.object(body).jsonText.utf8))
    }

    /// `GET /__admin/sessions`: the live sessions, with request counts and idle times.
    public func sessions() async throws -> [SessionInfo] {
        let answer: [String: [SessionInfo]] = try await send("GET", "/__admin/sessions")
        return answer["sessions"] ?? []
    }

    /// `DELETE /__admin/sessions/{id}`: closes the session's port and frees it; throws (404) for
    /// an unknown id.
    public func deleteSession(id: String) async throws {
        let _: JSONValue = try await send("DELETE", "/__admin/sessions/\(Self.escape(id))")
    }
}
