/// The admin API as a plain function: the transport routes `/__admin/*` here, and tests call it
/// directly. Admin requests are not journaled. A malformed body or an unknown id gets 400/404 and
/// changes nothing.
extension StubEngine {
    /// The path prefix of every admin endpoint.
    public static let adminPrefix = "/__admin"

    /// Whether `path` belongs to the admin API.
    public static func isAdminPath(_ path: String) -> Bool {
        // Every request asks, so the common answer comes from the first bytes: a path that does
        // not start with `/__admin` is not one. Only paths that do are compared as strings
        // (by characters, as before: `/__admin/` followed by a combining mark is not a prefix).
        let mayBeAdmin = path.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.count >= 8 && bytes[1] == UInt8(ascii: "_") && bytes[2] == UInt8(ascii: "_")
                && bytes[0] == UInt8(ascii: "/")
        } ?? true
        return mayBeAdmin && (path == adminPrefix || path.hasPrefix(adminPrefix + "/"))
    }

    /// Answers one admin request now or later: `GET /__admin/requests/wait` is a long poll the
    /// transport completes later; everything else is answered by ``admin(_:reload:)``.
    public func adminAnswer(_ request: HTTPRequest, reload: () -> Result<Int, StubLoadFailure>) -> HTTPAnswer {
        guard Self.adminSegments(request.path) == ["requests", "wait"] else {
            return .now(admin(request, reload: reload))
        }
        if let refusal = authorizationRefusal(request) { return .now(refusal) }
        let method = request.method.uppercased()
        guard method == "GET" else { return .now(AdminResponse.methodNotAllowed(method, allowed: ["GET"])) }
        return waitForRequests(request.query)
    }

    /// Answers one admin request. `reload` re-reads the stub files (`POST /__admin/reload`).
    /// With an admin token configured, a request without the right `Authorization: Bearer`
    /// header gets 401 before anything else is looked at. A wait (`requests/wait`) called here
    /// answers with what the journal holds now, since nothing can complete it later.
    public func admin(_ request: HTTPRequest, reload: () -> Result<Int, StubLoadFailure>) -> HTTPResponse {
        if let page = AdminPage.response(for: request) { return page }  // static, holds no data: served without the token
        if let refusal = authorizationRefusal(request) { return refusal }
        let method = request.method.uppercased()
        let segments = Self.adminSegments(request.path)

        switch segments {
        case ["health"]:
            guard method == "GET" else { return AdminResponse.methodNotAllowed(method, allowed: ["GET"]) }
            return AdminResponse.value(.object([
                JSONMember("status", .string("ok")),
                JSONMember("stubs", .int(stubs.count)),
                JSONMember("requests", .int(journal.count)),
                JSONMember("pending", .int(awaitingDelivery)),
                JSONMember("waiting", .int(waiters.count)),
            ]))
        case ["requests"]:
            switch method {
            case "GET": return listRequests(request.query)
            case "DELETE":
                let cleared = journal.clear()
                if !waiters.isEmpty { recountWaiters() }
                return AdminResponse.value(.object([JSONMember("cleared", .int(cleared))]))
            default: return AdminResponse.methodNotAllowed(method, allowed: ["GET", "DELETE"])
            }
        case ["requests.har"]:
            guard method == "GET" else { return AdminResponse.methodNotAllowed(method, allowed: ["GET"]) }
            return exportHAR(request)
        case _ where segments.count == 3 && segments[0] == "requests" && segments[2] == "near-misses":
            guard method == "GET" else { return AdminResponse.methodNotAllowed(method, allowed: ["GET"]) }
            return explainRequest(segments[1])
        case ["rate-limits"]:
            guard method == "GET" else { return AdminResponse.methodNotAllowed(method, allowed: ["GET"]) }
            return listRateLimits()
        case ["requests", "count"]:
            guard method == "POST" else { return AdminResponse.methodNotAllowed(method, allowed: ["POST"]) }
            return countRequests(request.body)
        case ["requests", "find"]:
            guard method == "POST" else { return AdminResponse.methodNotAllowed(method, allowed: ["POST"]) }
            return findRequests(request.body)
        case ["requests", "wait"]:
            guard method == "GET" else { return AdminResponse.methodNotAllowed(method, allowed: ["GET"]) }
            switch waitForRequests(request.query) {
            case .now(let response):
                return response
            case .later(let reply):
                var response = AdminResponse.error(500, "the wait was not answered")
                reply.expire()
                reply.attach { response = $0 }
                return response
            }
        case ["stubs"]:
            switch method {
            case "GET": return listStubs()
            case "POST": return addStubs(request.body)
            default: return AdminResponse.methodNotAllowed(method, allowed: ["GET", "POST"])
            }
        case _ where segments.count == 2 && segments[0] == "stubs":
            guard method == "DELETE" else { return AdminResponse.methodNotAllowed(method, allowed: ["DELETE"]) }
            return deleteStub(segments[1])
        case ["scenarios"]:
            guard method == "GET" else { return AdminResponse.methodNotAllowed(method, allowed: ["GET"]) }
            return listScenarios()
        case _ where segments.count == 2 && segments[0] == "scenarios" && !(method == "POST" && segments[1] == "reset"):
            guard method == "PUT" else { return AdminResponse.methodNotAllowed(method, allowed: ["PUT"]) }
            return setScenario(segments[1], request.body)
        case ["reset"]:
            guard method == "POST" else { return AdminResponse.methodNotAllowed(method, allowed: ["POST"]) }
            reset()
            removeWireMockAdminMappings()
            return AdminResponse.value(.object([JSONMember("reset", .bool(true))]))
        case ["reload"]:
            guard method == "POST" else { return AdminResponse.methodNotAllowed(method, allowed: ["POST"]) }
            switch reload() {
            case .success(let count): return AdminResponse.value(.object([JSONMember("stubs", .int(count))]))
            case .failure(let failure): return AdminResponse.loadFailure(failure)
            }
        case ["tls", "ca.pem"]:
            guard method == "GET" else { return AdminResponse.methodNotAllowed(method, allowed: ["GET"]) }
            return certificateAuthority()
        default:
            if let answer = wireMockAdmin(method, segments, request, reload: reload) { return answer }
            return AdminResponse.error(404, "no admin endpoint \(request.method) \(request.path); see the README's Admin API section")
        }
    }

    /// The 401 for a request without the admin token, when one is configured; nil otherwise.
    func authorizationRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard let token = configuration.adminToken else { return nil }
        return AdminAuthorization(token: token).refusal(for: request)
    }

    /// The decoded path segments after `/__admin` (trailing slashes ignored).
    static func adminSegments(_ rawPath: String) -> [String] {
        var path = rawPath
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        let tail = path.dropFirst(adminPrefix.count)
        return tail.split(separator: "/", omittingEmptySubsequences: true).map { PercentDecoding.decodePath(String($0)) }
    }
}
