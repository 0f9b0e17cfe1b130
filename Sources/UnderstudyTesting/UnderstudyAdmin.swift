import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Typed access to a daemon's admin API (`/__admin/...`). Every call throws
/// `UnderstudyError.admin` with the daemon's explanation when it does not succeed.
public struct UnderstudyAdmin: Sendable {
    /// The daemon's base URL (`http://127.0.0.1:PORT`).
    public let baseURL: URL
    /// Sent as `Authorization: Bearer …` with every call, when set.
    let adminToken: String?
    /// The session this admin is scoped to, when it belongs to a session handle: once the handle
    /// deleted it, calls fail saying so without connecting (the port is closed, or by now another
    /// session's).
    let session: SessionLease?

    /// Talks to the daemon at `baseURL`; `adminToken` (for a daemon started with `--admin-token`)
    /// goes with every call as `Authorization: Bearer <token>`.
    public init(baseURL: URL, adminToken: String? = nil) {
        self.baseURL = baseURL
        self.adminToken = adminToken
        self.session = nil
    }

    init(baseURL: URL, adminToken: String?, session: SessionLease?) {
        self.baseURL = baseURL
        self.adminToken = adminToken
        self.session = session
    }

    // MARK: Journal

    /// `GET /__admin/health`.
    public func health() async throws -> DaemonHealth {
        try await send("GET", "/__admin/health")
    }

    /// Recorded requests (admin requests are never recorded), filtered.
    public func requestLog(_ filter: RequestFilter = RequestFilter()) async throws -> RequestLog {
        try await send("GET", "/__admin/requests", query: filter.queryItems)
    }

    /// Just the recorded requests, in arrival order.
    public func requests(_ filter: RequestFilter = RequestFilter()) async throws -> [RecordedRequest] {
        try await requestLog(filter).requests
    }

    /// Recorded requests to `path` (exact, as the journal has it), optionally with one method.
    public func requests(path: String, method: String? = nil) async throws -> [RecordedRequest] {
        try await requests(RequestFilter(method: method, path: path))
    }

    /// Requests no stub answered (webhook attempts, which the daemon sent, are not among them).
    public func unmatchedRequests() async throws -> [RecordedRequest] {
        // A webhook attempt is journaled unmatched (no stub answered it: the daemon sent it), but
        // it is no request the stubs missed.
        try await requests(RequestFilter(matched: false)).filter { $0.outbound == nil }
    }

    /// How many recorded requests `matcher` matches.
    public func count(matching matcher: RequestMatcher) async throws -> Int {
        let answer: [String: Int] = try await send(
            "POST", "/__admin/requests/count", body: try JSONEncoder().encode(matcher))
        return answer["count"] ?? 0
    }

    /// Clears the journal; returns how many entries were removed.
    @discardableResult
    public func clearRequests() async throws -> Int {
        let answer: [String: Int] = try await send("DELETE", "/__admin/requests")
        return answer["cleared"] ?? 0
    }

    // MARK: Stubs

    /// Every loaded stub with its progress.
    public func stubs() async throws -> [StubStatus] {
        let answer: [String: [StubStatus]] = try await send("GET", "/__admin/stubs")
        return answer["stubs"] ?? []
    }

    /// One stub's status, or `nil` if no stub has that id.
    public func stub(id: String) async throws -> StubStatus? {
        try await stubs().first { $0.id == id }
    }

    /// Adds (or replaces, by id) the stubs of a stub file's JSON text, all or nothing.
    @discardableResult
    public func addStubs(json: String) async throws -> AddedStubs {
        try await send("POST", "/__admin/stubs", body: Data(json.utf8))
    }

    /// Adds the stubs of the stub file at `path`.
    @discardableResult
    public func addStubs(fileAt path: String) async throws -> AddedStubs {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try await send("POST", "/__admin/stubs", body: data)
    }

    /// Adds stubs given as a value: anything encoding to `{"stubs":[...]}` (a `JSONValue`, say).
    @discardableResult
    public func addStubs<File: Encodable>(_ stubFile: File) async throws -> AddedStubs {
        try await send("POST", "/__admin/stubs", body: try JSONEncoder().encode(stubFile))
    }

    /// Removes the stub `id`.
    public func deleteStub(id: String) async throws {
        let _: JSONValue = try await send("DELETE", "/__admin/stubs/\(Self.escape(id))")
    }

    /// Re-reads the daemon's stub paths; returns the stub count.
    @discardableResult
    public func reload() async throws -> Int {
        let answer: [String: Int] = try await send("POST", "/__admin/reload")
        return answer["stubs"] ?? 0
    }

    // MARK: Scenarios and reset

    /// Every scenario and its state.
    public func scenarios() async throws -> [ScenarioStatus] {
        let answer: [String: [ScenarioStatus]] = try await send("GET", "/__admin/scenarios")
        return answer["scenarios"] ?? []
    }

    /// Moves scenario `name` to `state`.
    public func setScenario(_ name: String, to state: String) async throws {
        let _: JSONValue = try await send(
            "PUT", "/__admin/scenarios/\(Self.escape(name))",
            body: try JSONEncoder().encode(["state": state]))
    }

    /// Sequences, scenarios, rate limits and the journal back to the start; stubs stay.
    public func reset() async throws {
        let _: JSONValue = try await send("POST", "/__admin/reset")
    }

    // MARK: Transport

    /// ISO 8601 with milliseconds, as the daemon writes times.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func escape(_ segment: String) -> String {
        segment.addingPercentEncoding(
            withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? segment
    }

    /// One admin call; `timeout` overrides the 30 s request timeout (for long polls).
    func send<Answer: Decodable>(
        _ method: String, _ path: String, query: [URLQueryItem] = [],
        body: Data? = nil, timeout: TimeInterval? = nil
    ) async throws -> Answer {
        let data = try await sendForData(method, path, query: query, body: body, timeout: timeout)
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw UnderstudyError.admin(
                AdminError(
                    method: method, path: path, status: 200,
                    message: "unreadable answer (\(error)): \(String(decoding: data, as: UTF8.self))", errors: []))
        }
    }

    /// One admin call whose successful answer's body is returned as it came (the CA's PEM, say).
    func sendForData(
        _ method: String, _ path: String, query: [URLQueryItem] = [],
        body: Data? = nil, timeout: TimeInterval? = nil
    ) async throws -> Data {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        components?.percentEncodedPath = path
        components?.queryItems = query.isEmpty ? nil : query
        guard let url = components?.url else { throw UnderstudyError.invalidURL(baseURL.absoluteString + path) }
        var headers: [(String, String)] = []
        if let adminToken { headers.append(("Authorization", "Bearer \(adminToken)")) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let failure = { (status: Int, message: String, errors: [StubValidationError]) in
            UnderstudyError.admin(
                AdminError(method: method, path: path, status: status, message: message, errors: errors))
        }
        if let session, let deleted = session.deletedAt {
            throw failure(
                0,
                "this session (\(session.id)) was deleted (at \(Self.timestamp(deleted))) by its handle's "
                    + "stop(), stopWithoutWaiting() or release; its URL \(baseURL.absoluteString) no longer reaches it",
                [])
        }
        let response: AdminHTTPClient.Response
        do {
            // Not URLSession: see AdminHTTPClient (cancellation cannot reach, or freeze, admin calls).
            response = try await AdminHTTPClient.send(
                method: method, url: url, headers: headers, body: body,
                timeout: timeout ?? 30)
        } catch {
            throw failure(0, "\(error)", [])
        }
        let status = response.status
        let data = response.body
        guard (200...299).contains(status) else {
            let problem = try? JSONDecoder().decode(AdminProblem.self, from: data)
            throw failure(status, problem?.error ?? String(decoding: data, as: UTF8.self), problem?.errors ?? [])
        }
        return data
    }
}

/// The admin API's error body.
private struct AdminProblem: Decodable {
    var error: String
    var errors: [StubValidationError]?
}
