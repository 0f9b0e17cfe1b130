import Foundation

extension Understudy {
    /// The process-wide daemon, shared by every test of this process: attached through
    /// `UNDERSTUDY_URL` when that is set (with `UNDERSTUDY_ADMIN_TOKEN`), otherwise launched once,
    /// on first use, with no stubs of its own. `stop()` on it does nothing; a launched one ends
    /// with the test process, however that ends (SIGKILL included).
    ///
    /// Tests normally don't touch it directly: they take a `session(stubs:)` on it.
    public static func shared() async throws(UnderstudyError) -> Understudy {
        try await SharedDaemon.instance.handle()
    }

    /// A new session — a private Understudy behind its own port — on `daemon` (by default the
    /// process-wide one), with the stubs of `stubs` (files or directories, loaded like the
    /// daemon's own: directories give every `*.json` below them in path order).
    ///
    /// The handle works like a daemon's: `baseURL` is the session's URL, `admin` is scoped to the
    /// session (journal with `seq` from 1, stubs, scenarios, reset…), and `stop()` — or releasing
    /// the handle — deletes the session. The session starts with `daemon`'s file stubs too (none,
    /// for the process-wide one).
    ///
    /// - Parameters:
    ///   - stubs: stub files or directories, relative to the current directory or absolute. Each
    ///     file goes to the session as `POST /__admin/stubs`; a refused file throws
    ///     `UnderstudyError.admin` whose errors name that file, line and column, and no session is
    ///     left behind. (`bodyFile` is not available to stubs given this way.)
    ///   - name: shown in the session list and logs.
    ///   - tls: also give the session an HTTPS port presenting this certificate; its URL is the
    ///     handle's `httpsURL`, and `tlsConfiguration()` / `certificateAuthorityPEM()` give the CA
    ///     to trust. The process-wide daemon always serves HTTPS; another `daemon` must have been
    ///     started with `--https` (`launchHTTPS`).
    ///   - clock: how the session's clock starts (real time when nil); drive it with `clock`.
    ///   - daemon: where to create it; a session handle here means its daemon.
    public static func session(
        stubs: [String] = [], name: String? = nil, tls: TLSCertificateMode? = nil,
        clock: ClockMode? = nil, on daemon: Understudy? = nil
    ) async throws -> Understudy {
        try await session(
            stubs: stubs, name: name, tls: tls, clock: clock, maxConcurrentStreams: nil as Int?, on: daemon)
    }

    /// A new session as ``session(stubs:name:tls:clock:on:)`` makes it, whose ports announce the
    /// HTTP/2 stream cap `maxConcurrentStreams` (1 to 10000; the daemon's `--max-concurrent-streams`
    /// when nil) and refuse a stream over it with `RST_STREAM REFUSED_STREAM`.
    public static func session(
        stubs: [String] = [], name: String? = nil, tls: TLSCertificateMode? = nil,
        clock: ClockMode? = nil, maxConcurrentStreams: Int?, on daemon: Understudy? = nil
    ) async throws -> Understudy {
        try await makeSession(
            stubs: stubs, name: name, tls: tls, clock: clock, maxConcurrentStreams: maxConcurrentStreams,
            webhookURL: nil, webhookSecret: nil, on: daemon)
    }

    /// A new session as ``session(stubs:name:tls:clock:on:)`` makes it, whose webhooks go to
    /// `webhookURL` when their stubs give no `url`, signed with `webhookSecret` when their `signing`
    /// gives no secret (`webhookDefaults`, docs/webhooks.md): one stub file, each test's own receiver.
    public static func session(
        stubs: [String] = [], name: String? = nil, tls: TLSCertificateMode? = nil,
        clock: ClockMode? = nil, webhookURL: String?, webhookSecret: String? = nil, on daemon: Understudy? = nil
    ) async throws -> Understudy {
        try await makeSession(
            stubs: stubs, name: name, tls: tls, clock: clock, maxConcurrentStreams: nil,
            webhookURL: webhookURL, webhookSecret: webhookSecret, on: daemon)
    }

    private static func makeSession(
        stubs: [String], name: String?, tls: TLSCertificateMode?, clock: ClockMode?, maxConcurrentStreams: Int?,
        webhookURL: String?, webhookSecret: String?, on daemon: Understudy?
    ) async throws -> Understudy {
        let host: Understudy
        if let daemon { host = daemon.sessionHost } else { host = try await shared() }
        let info = try await host.admin.createSession(
            name: name, tls: tls, clock: clock, maxConcurrentStreams: maxConcurrentStreams,
            webhookURL: webhookURL, webhookSecret: webhookSecret)
        guard let url = URL(string: info.url) else { throw UnderstudyError.invalidURL(info.url) }
        let lease = SessionLease(id: info.id, daemon: host, httpsURL: info.httpsURL, tls: tls)
        let session = Understudy(
            baseURL: url, backing: .session(lease),
            adminToken: host.admin.adminToken)
        do {
            for file in try StubPaths.files(in: stubs) {
                try await session.admin.addStubs(stubFile: file)
            }
        } catch {
            await session.stop()
            throw error
        }
        return session
    }

    /// The handle sessions are created on: the daemon itself, or a session's daemon.
    var sessionHost: Understudy {
        if case let .session(lease) = backing { return lease.daemon }
        return self
    }

    /// The certificate mode the session was created with (`nil` for no HTTPS, or not a session).
    public var sessionTLS: TLSCertificateMode? {
        if case let .session(lease) = backing { return lease.tls }
        return nil
    }
}
