import UnderstudyHTTP

/// The live sessions of a daemon and the `/__admin/sessions` endpoints of its main port.
///
/// A session is a second engine built from the daemon's file-loaded stubs in fresh state, plus
/// its own posted stubs, behind a port the ``SessionHosting`` transport opens. Nothing a session
/// does reaches the main port's engine or another session's: each has its own sequences,
/// scenarios, rate-limit windows, journal (`seq` from 1) and admin API. Journal lines of every
/// session go to the daemon's one journal sink, tagged with `"session"`.
///
/// Not `Sendable`: the event loop drives it.
public final class SessionRegistry: HostedSessions {
    /// The cap and idle timeout.
    public let limits: SessionLimits
    /// Opens and closes session ports; set by the transport (``SessionHosting``).
    public weak var host: (any SessionHosting)?
    /// Told about sessions reclaimed by the idle timeout (the CLI writes it to stderr).
    public var log: ((String) -> Void)?
    /// The main port's responder: its file-loaded stubs, paths and configuration seed each session.
    private unowned let main: any SessionResponder
    private var sessions: [String: Session] = [:]
    /// Ids in creation order, for listing.
    private var order: [String] = []
    private var created = 0

    init(main: any SessionResponder, limits: SessionLimits) {
        self.main = main
        self.limits = limits
    }

    /// How many sessions are alive.
    public var count: Int { sessions.count }

    /// The ids of the live sessions, oldest first.
    public var ids: [String] { order }

    /// The responder behind session `id` (for the `Understudy-Session` header), if alive.
    func session(_ id: String) -> Session? { sessions[id] }

    // MARK: - Admin API

    /// Answers `/__admin/sessions` and `/__admin/sessions/{id}` (the segments after `/__admin`).
    /// `GET /__admin/sessions/{id}`.
    func describe(id: String) -> HTTPResponse {
        guard let session = sessions[id] else { return unknown(id) }
        return AdminResponse.value(describe(session, now: main.engine.configuration.clock.monotonicNanoseconds))
    }

    /// `POST /__admin/sessions`: 201 with the new session, or 400/503 and nothing created.
    public func create(_ body: [UInt8]) -> HTTPResponse {
        guard let host else {
            return AdminResponse.error(
                503, "sessions are not available: this server has no transport to open session ports")
        }
        guard sessions.count < limits.maxSessions else {
            return AdminResponse.error(
                503,
                "too many sessions: \(sessions.count) alive, the cap is \(limits.maxSessions) (--max-sessions); delete sessions you no longer need (DELETE /__admin/sessions/{id}) or raise the cap"
            )
        }
        let decoded: SessionRequest
        switch SessionRequest.decode(body) {
        case .success(let value): decoded = value
        case .failure(let failure): return failure.response
        }
        if decoded.tls != nil && !host.servesHTTPS {
            return AdminResponse.error(400, "`tls` needs HTTPS: start the daemon with --https")
        }
        let id = nextID()
        var configuration = main.engine.configuration
        configuration.sessionID = id
        configuration.clockStart = decoded.clock ?? .real  // each world owns its clock
        configuration.idempotency = decoded.idempotency
        configuration.earlyRetries = decoded.earlyRetries
        configuration.webhookDefaults = decoded.webhookDefaults
        if let recording = decoded.recording {
            // A recording is written from the journal, and a body cut there cannot be written.
            configuration.journalBodyLimit = Int.max
            configuration.recording = RecordingPlan(out: recording.out, options: recording.options)
        }
        let responder = main.makeSessionResponder(configuration: configuration)
        if let stubs = decoded.stubs { responder.engine.add(stubs) }
        let session = Session(id: id, name: decoded.name, responder: responder, clock: configuration.clock)
        session.maxConcurrentStreams = decoded.maxConcurrentStreams
        switch host.openListener(for: session) {
        case .success(let listener):
            session.listener = listener
            responder.serverURL = listener.url  // the session's own `{{server.url}}`
        case .failure(let error):
            return AdminResponse.error(503, "cannot open a port for a new session: \(error.message)")
        }
        if let mode = decoded.tls {
            switch host.openSecureListener(for: session, mode: mode) {
            case .success(let listener):
                session.secureListener = listener
                responder.secureServerURL = listener.url
            case .failure(let error):
                session.close()
                return AdminResponse.error(503, "cannot open an HTTPS port for a new session: \(error.message)")
            }
        }
        sessions[id] = session
        order.append(id)
        return AdminResponse.value(describe(session, now: nil), status: 201)
    }

    /// `GET /__admin/sessions`.
    public func list() -> HTTPResponse {
        let now = main.engine.configuration.clock.monotonicNanoseconds
        let items = order.compactMap { sessions[$0] }.map { describe($0, now: now) }
        return AdminResponse.value(.object([JSONMember("sessions", .array(items))]))
    }

    /// `DELETE /__admin/sessions/{id}`: closes the port and its connections, frees the session.
    public func delete(_ id: String) -> HTTPResponse {
        guard remove(id) else { return unknown(id) }
        return AdminResponse.value(.object([JSONMember("deleted", .string(id))]))
    }

    // MARK: - Lifetime

    /// Deletes every session idle for longer than the idle timeout; returns their ids. The
    /// transport calls it every ``SessionLimits/sweepIntervalSeconds``.
    @discardableResult
    public func reclaimIdle() -> [String] {
        guard let timeout = limits.idleTimeoutSeconds, !sessions.isEmpty else { return [] }
        let now = main.engine.configuration.clock.monotonicNanoseconds
        let limit = UInt64(timeout * 1_000_000_000)
        let idle = order.filter { id in sessions[id].map { now &- $0.lastActivity > limit } ?? false }
        for id in idle {
            remove(id)
            log?(
                "understudy: session \(id) reclaimed after \(StubEngine.formatSeconds(timeout)) s without a request (--session-idle-timeout)"
            )
        }
        return idle
    }

    /// How often the transport reclaims idle sessions (``SessionLimits/sweepIntervalSeconds``).
    public var sweepIntervalSeconds: Double? { limits.sweepIntervalSeconds }

    /// Closes every session (the server is stopping).
    public func closeAll() {
        for id in order { remove(id) }
    }

    @discardableResult
    private func remove(_ id: String) -> Bool {
        guard let session = sessions.removeValue(forKey: id) else { return false }
        order.removeAll { $0 == id }
        session.close()
        return true
    }

    /// `s<N>-<6 random hex digits>`: the counter keeps ids readable and in creation order; the
    /// random part keeps a stale id (from before a daemon restart, say) from naming someone
    /// else's session.
    private func nextID() -> String {
        var id: String
        repeat {
            created += 1
            let suffix = String(UInt32.random(in: 0..<(1 << 24)), radix: 16)
            id = "s\(created)-" + String(repeating: "0", count: 6 - suffix.count) + suffix
        } while sessions[id] != nil
        return id
    }

    private func unknown(_ id: String) -> HTTPResponse {
        let alive =
            order.isEmpty
            ? "no session is alive"
            : "alive: \(order.prefix(20).joined(separator: ", "))\(order.count > 20 ? ", …" : "")"
        return AdminResponse.error(
            404,
            "no session with id `\(id)` (\(alive)); it may have been deleted or reclaimed after --session-idle-timeout")
    }

    /// The session as the admin API shows it; `now` adds `requests` and `idleMs` (the listing).
    private func describe(_ session: Session, now: UInt64?) -> JSONValue {
        var members = [
            JSONMember("id", .string(session.id)),
            JSONMember("name", .optional(session.name)),
            JSONMember("url", .string(session.listener?.url ?? "")),
            JSONMember("port", .int(session.listener?.port ?? 0)),
            JSONMember("created", .string(session.created)),
        ]
        if let plan = session.responder.engine.configuration.recording {
            members.append(
                JSONMember(
                    "recording",
                    .object([JSONMember("out", .string(plan.out)), JSONMember("written", .bool(plan.written))])))
        }
        if let streams = session.maxConcurrentStreams {
            members.append(JSONMember("maxConcurrentStreams", .int(streams)))
        }
        if let secure = session.secureListener {
            members.append(JSONMember("httpsUrl", .string(secure.url)))
            members.append(JSONMember("httpsPort", .int(secure.port)))
        }
        if let now {
            members.append(JSONMember("requests", .int(session.requests)))
            members.append(JSONMember("idleMs", .int(session.idleMilliseconds(now: now))))
        }
        return .object(members)
    }
}

@available(*, unavailable)
extension SessionRegistry: Sendable {}

extension SessionRegistry: SessionAdministration {}
