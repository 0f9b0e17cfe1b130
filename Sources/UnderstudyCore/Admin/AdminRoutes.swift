#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyHTTP

/// The admin API's one route table: every native endpoint is listed here, with its method, path
/// under `/__admin`, the ports it exists on and its handler; adapters' routes (another tool's admin
/// API) are declared by their adapter, in its own module's `Admin/*Admin+Routes.swift`, and
/// registered with ``install(_:)``. Routing is this table and nothing else: a path
/// no route has is a 404, a path some route has with another method a 405 naming the methods.
///
/// Admin requests are not journaled. A malformed body or an unknown id gets 400/404 and changes
/// nothing. With an admin token configured, a request without it gets 401 before routing.
package struct AdminRoutes: Sendable {
    /// The path prefix of every admin endpoint.
    static let prefix = "/__admin"

    /// The native endpoints, in the order `Allow` lists their methods.
    static let native: [AdminRoute] = [
        AdminRoute("GET", "health", .both, ServerAdmin.health),
        AdminRoute("GET", "requests", .both, RequestsAdmin.list),
        AdminRoute("DELETE", "requests", .both, RequestsAdmin.clear),
        AdminRoute("POST", "requests/count", .both, RequestsAdmin.count),
        AdminRoute("POST", "requests/find", .both, RequestsAdmin.find),
        AdminRoute("GET", "requests/wait", .both, answering: RequestsAdmin.wait),
        AdminRoute("GET", "requests/{seq}/near-misses", .both, RequestsAdmin.nearMisses),
        AdminRoute("GET", "stubs", .both, StubsAdmin.list),
        AdminRoute("POST", "stubs", .both, StubsAdmin.add),
        AdminRoute("DELETE", "stubs/{id}", .both, StubsAdmin.delete),
        AdminRoute("GET", "scenarios", .both, ScenariosAdmin.list),
        AdminRoute("PUT", "scenarios/{name}", .both, ScenariosAdmin.set),
        AdminRoute("GET", "rate-limits", .both, ServerAdmin.rateLimits),
        AdminRoute("GET", "clock", .both, ClockAdmin.get),
        AdminRoute("POST", "clock", .both, ClockAdmin.post),
        AdminRoute("GET", "webhooks", .both, WebhooksAdmin.list),
        AdminRoute("POST", "webhooks", .both, WebhooksAdmin.fire),
        AdminRoute("POST", "reset", .both, ServerAdmin.reset),
        AdminRoute("POST", "reload", .both, ServerAdmin.reload),
        AdminRoute("GET", "tls/ca.pem", .both, ServerAdmin.certificateAuthority),
        AdminRoute(
            "GET", "sessions", .main, { call in call.sessions.map { $0.list() } ?? ServerAdmin.noSessions(call) }),
        AdminRoute(
            "POST", "sessions", .main,
            { call in call.sessions.map { $0.create(call.request.body) } ?? ServerAdmin.noSessions(call) }),
        AdminRoute(
            "GET", "sessions/{id}", .main,
            { call in call.sessions.map { $0.describe(id: call.parameter) } ?? ServerAdmin.noSessions(call) }),
        AdminRoute(
            "DELETE", "sessions/{id}", .main,
            { call in call.sessions.map { $0.delete(call.parameter) } ?? ServerAdmin.noSessions(call) }),
    ]

    /// Every route: the native ones, then each adapter's.
    let routes: [AdminRoute]
    let adapters: [AdminAdapter]

    init(adapters: [AdminAdapter]) {
        self.adapters = adapters
        self.routes = Self.native + adapters.flatMap(\.routes)
    }

    /// The installed adapters, and the table composed from them on first use (under `lock`, from any
    /// thread): composing builds every route, ~0.35 M instructions a start need not pay.
    nonisolated(unsafe) private static var installed: (adapters: [AdminAdapter], table: AdminRoutes?) = ([], nil)
    private static let lock = AdminTableLock()

    /// The table every responder and engine answers admin requests with: the native routes and
    /// the installed adapters'.
    package static var standard: AdminRoutes {
        lock.withLock {
            if let table = installed.table { return table }
            let table = AdminRoutes(adapters: installed.adapters)
            installed.table = table
            return table
        }
    }

    /// Adds an adapter's routes and hooks to ``standard`` (replacing one of the same name). Called
    /// at start-up, before the engine's threads start (the CLI's `main`, a test's `setUp`), as
    /// ``XMLSupport/install(_:)``.
    package static func install(_ adapter: AdminAdapter) {
        lock.withLock { installed = (installed.adapters.filter { $0.name != adapter.name } + [adapter], nil) }
    }

    /// Whether `path` belongs to the admin API.
    static func isAdminPath(_ path: String) -> Bool {
        // Every request asks, so the common answer comes from the first bytes: a path that does
        // not start with `/__admin` is not one. Only paths that do are compared as strings
        // (by characters, as before: `/__admin/` followed by a combining mark is not a prefix).
        let mayBeAdmin =
            path.utf8.withContiguousStorageIfAvailable { bytes in
                bytes.count >= 8 && bytes[1] == UInt8(ascii: "_") && bytes[2] == UInt8(ascii: "_")
                    && bytes[0] == UInt8(ascii: "/")
            } ?? true
        return mayBeAdmin && (path == prefix || path.hasPrefix(prefix + "/"))
    }

    /// The decoded path segments after `/__admin` (trailing slashes ignored).
    static func segments(_ rawPath: String) -> [String] {
        var path = rawPath
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        let tail = path.dropFirst(prefix.count)
        return tail.split(separator: "/", omittingEmptySubsequences: true).map {
            PercentDecoding.decodePath(String($0))
        }
    }

    /// The 401 for a request without the admin token, when one is configured; nil otherwise.
    package static func authorizationRefusal(_ request: HTTPRequest, _ configuration: EngineConfiguration)
        -> HTTPResponse?
    {
        guard let token = configuration.adminToken else { return nil }
        return AdminAuthorization(token: token).refusal(for: request)
    }

    /// Answers one admin request now or later (`requests/wait` is a long poll the transport
    /// completes later). `isSession` says which port's API this is.
    func answer(
        _ request: HTTPRequest, engine: any EngineControl, isSession: Bool = false,
        sessions: (any SessionAdministration)? = nil,
        reload: @escaping () -> Result<Int, StubLoadFailure>
    ) -> HTTPAnswer {
        // The admin page is static and holds no data: served without the token.
        if let page = AdminPage.response(for: request) { return .now(page) }
        if let refusal = Self.authorizationRefusal(request, engine.configuration) { return .now(refusal) }
        let method = request.method.uppercased()
        let path = Self.segments(request.path)
        let fitting = routes.compactMap { route in route.parameters(path).map { (route: route, parameters: $0) } }
        guard !fitting.isEmpty else {
            return .now(
                AdminResponse.error(404, "no admin endpoint \(request.method) \(request.path); see docs/admin-api.md"))
        }
        let here = fitting.filter { $0.route.world.includes(isSession) }
        guard !here.isEmpty else {
            return .now(
                AdminResponse.error(
                    404,
                    "no admin endpoint \(request.method) \(request.path) on a session's port: sessions are created, listed and deleted on the daemon's main port"
                ))
        }
        var chosen: (route: AdminRoute, parameters: [String])?
        for candidate in here where candidate.route.method == method {
            if chosen == nil || candidate.route.specificity > chosen!.route.specificity { chosen = candidate }
        }
        guard let chosen else {
            var allowed: [String] = []
            for candidate in here where !allowed.contains(candidate.route.method) {
                allowed.append(candidate.route.method)
            }
            return .now(AdminResponse.methodNotAllowed(method, allowed: allowed))
        }
        return chosen.route.handler(
            AdminCall(
                request: request, parameters: chosen.parameters, engine: engine,
                reload: reload, sessions: isSession ? nil : sessions, routes: self))
    }

    /// ``answer(_:engine:isSession:sessions:reload:)`` for a caller that needs the response now:
    /// a wait answers with what the journal holds, since nothing can complete it later.
    func respond(
        _ request: HTTPRequest, engine: any EngineControl, isSession: Bool = false,
        sessions: (any SessionAdministration)? = nil,
        reload: @escaping () -> Result<Int, StubLoadFailure>
    ) -> HTTPResponse {
        switch answer(request, engine: engine, isSession: isSession, sessions: sessions, reload: reload) {
        case .now(let response):
            return response
        case .later(let reply):
            var response = AdminResponse.error(500, "the wait was not answered")
            reply.expire()
            reply.attach { response = $0 }
            return response
        }
    }
}

/// A pthread mutex around ``AdminRoutes``' installed table (no `Mutex`: macOS 13 lacks it).
private final class AdminTableLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
