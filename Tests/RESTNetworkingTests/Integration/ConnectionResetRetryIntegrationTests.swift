#if AsyncHTTPClient  // the package trait (Package.swift); scripts/test turns it on
import AsyncHTTPClient
import Foundation
import UnderstudyTesting
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What URLSession and AsyncHTTPClient really do when a `connection-reset` fault hits a request,
/// on a fresh connection and on a reused keep-alive one, for a GET and for a POST with a body:
/// whether the request is sent again behind the caller's back, how many times the daemon journals
/// it, and what the caller sees. docs/cli.md ("A reset on a reused connection") states these results;
/// this suite keeps that page true. curl and Python's clients are held to the same page by
/// `Tests/BlackBox/test_fault_retries.py`.
///
/// The clients are used raw (no RESTNetworking operator), since the question is what the
/// transport does on its own.
final class ConnectionResetRetryIntegrationTests: XCTestCase {
    /// One stub that answers, to open a keep-alive connection, and one that resets whatever
    /// method comes.
    static let stubs = """
        {"stubs": [
          {"id": "warm-up", "request": {"path": "/warm-up"}, "responses": [{"body": "ok"}]},
          {"id": "reset", "request": {"path": "/reset"}, "responses": [{"fault": "connection-reset"}]}
        ]}
        """
    /// The request timeout: whole seconds, since FoundationNetworking on Linux rounds a timeout
    /// down to whole seconds (0.5 s times out at once).
    static let timeout: TimeInterval = 2
    static let body = Data(#"{"amount":500}"#.utf8)

    private var understudy: Understudy!

    override func setUp() async throws {
        try await super.setUp()
        understudy = try await understudySession()
        _ = try await understudy.admin.addStubs(json: Self.stubs)
    }

    override func tearDown() async throws {
        understudy = nil
        try await super.tearDown()
    }

    /// The journal's entries for the reset stub, and that each was a fault carried out (a
    /// request the daemon never read whole is not journaled at all).
    private func resets(method: String) async throws -> Int {
        let entries = try await understudy.admin.requests(path: "/reset", method: method)
        for entry in entries { XCTAssertEqual(entry.fault, "connection-reset") }
        return entries.count
    }

    // MARK: - URLSession (FoundationNetworking, libcurl underneath on Linux)

    private struct SessionOutcome {
        var code: URLError.Code?
        var seconds: TimeInterval
    }

    private func urlSessionCall(_ method: String, reused: Bool) async throws -> SessionOutcome {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        if reused {
            let (_, response) = try await session.data(from: understudy.baseURL.appendingPathComponent("warm-up"))
            XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        }
        var request = URLRequest(url: understudy.baseURL.appendingPathComponent("reset"))
        request.httpMethod = method
        if method == "POST" {
            request.httpBody = Self.body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let started = Date()
        do {
            _ = try await session.data(for: request)
            XCTFail("\(method) /reset was answered")
            return SessionOutcome(code: nil, seconds: Date().timeIntervalSince(started))
        } catch let error as URLError {
            return SessionOutcome(code: error.code, seconds: Date().timeIntervalSince(started))
        }
    }

    /// Each row of docs/cli.md's table for URLSession, measured: how many times the daemon
    /// journals the request, and the error the caller sees (`-1005` at once, or `-1001` once the
    /// timeout ran out).
    private func checkURLSession(_ method: String, reused: Bool) async throws {
        let documented = try Self.documented("URLSession", method, reused: reused)
        let outcome = try await urlSessionCall(method, reused: reused)
        let connection = reused ? "reused" : "fresh"
        let what = "URLSession \(method) on a \(connection) connection (docs/cli.md: \(documented.cell))"
        let count = try await resets(method: method)
        XCTAssertEqual(count, documented.times, what)
        if documented.cell.contains("`-1001`") {
            XCTAssertEqual(outcome.code, .timedOut, what)
            XCTAssertGreaterThanOrEqual(outcome.seconds, Self.timeout - 0.5, "\(what): it waited out the timeout")
        } else {
            XCTAssertTrue(documented.cell.contains("`-1005`"), what)
            XCTAssertEqual(outcome.code, .networkConnectionLost, what)
        }
    }

    func testURLSessionGETOnAFreshConnection() async throws {
        try await checkURLSession("GET", reused: false)
    }

    func testURLSessionPOSTOnAFreshConnection() async throws {
        try await checkURLSession("POST", reused: false)
    }

    /// libcurl sends a request again, once, on a new connection when a reused one dies before
    /// any answer byte: the GET is journaled twice and the caller sees the second reset.
    func testURLSessionGETOnAReusedConnection() async throws {
        try await checkURLSession("GET", reused: true)
    }

    /// libcurl retries the POST too, but FoundationNetworking cannot rewind an `httpBody` for it:
    /// the retry sends the head with `Content-Length` and no body, the daemon waits for the body
    /// that never comes, and the caller waits for its timeout. The daemon journals the first
    /// attempt only (the second never reached it whole).
    func testURLSessionPOSTOnAReusedConnection() async throws {
        try await checkURLSession("POST", reused: true)
    }

    // MARK: - AsyncHTTPClient

    private struct ClientOutcome {
        var error: any Error
        var seconds: TimeInterval
    }

    private func asyncHTTPClientCall(_ method: String, reused: Bool) async throws -> ClientOutcome {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        do {
            let outcome = try await asyncHTTPClientCall(method, reused: reused, client: client)
            try await client.shutdown()
            return outcome
        } catch {
            try await client.shutdown()
            throw error
        }
    }

    private func asyncHTTPClientCall(_ method: String, reused: Bool, client: HTTPClient) async throws
        -> ClientOutcome
    {
        let base = understudy.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        if reused {
            let response = try await client.execute(HTTPClientRequest(url: base + "/warm-up"), timeout: .seconds(10))
            XCTAssertEqual(response.status.code, 200)
            _ = try await response.body.collect(upTo: 1024)
        }
        var request = HTTPClientRequest(url: base + "/reset")
        if method == "POST" {
            request.method = .POST
            request.body = .bytes(Array(Self.body))
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        let started = Date()
        do {
            let response = try await client.execute(request, timeout: .seconds(Int64(Self.timeout)))
            XCTFail("\(method) /reset was answered \(response.status)")
            throw CancellationError()
        } catch {
            return ClientOutcome(error: error, seconds: Date().timeIntervalSince(started))
        }
    }

    /// Each row of docs/cli.md's table for AsyncHTTPClient, measured.
    private func checkAsyncHTTPClient(_ method: String, reused: Bool) async throws {
        let documented = try Self.documented("AsyncHTTPClient", method, reused: reused)
        let outcome = try await asyncHTTPClientCall(method, reused: reused)
        let connection = reused ? "reused" : "fresh"
        let what = "AsyncHTTPClient \(method) on a \(connection) connection (docs/cli.md: \(documented.cell))"
        print("\(what): \(String(reflecting: outcome.error)) after \(outcome.seconds) s")
        let count = try await resets(method: method)
        XCTAssertEqual(count, documented.times, what)
        // The reused cell says "the same error": the fresh cell names it.
        let named = try Self.documented("AsyncHTTPClient", method, reused: false).cell
        XCTAssertTrue(named.contains(Self.described(outcome.error)), "\(what): \(outcome.error)")
    }

    /// How docs/cli.md names an AsyncHTTPClient error: a reset is NIO's `IOError` "Connection reset
    /// by peer"; anything else by its whole description, which the page then does not hold.
    static func described(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.contains("Connection reset by peer") ? "Connection reset by peer" : text
    }

    func testAsyncHTTPClientGETOnAFreshConnection() async throws {
        try await checkAsyncHTTPClient("GET", reused: false)
    }

    func testAsyncHTTPClientPOSTOnAFreshConnection() async throws {
        try await checkAsyncHTTPClient("POST", reused: false)
    }

    func testAsyncHTTPClientGETOnAReusedConnection() async throws {
        try await checkAsyncHTTPClient("GET", reused: true)
    }

    func testAsyncHTTPClientPOSTOnAReusedConnection() async throws {
        try await checkAsyncHTTPClient("POST", reused: true)
    }

    // MARK: - The page

    /// What docs/cli.md's retry table says for `client` (the start of its first cell) sending
    /// `method` (the start of its second) on a fresh or a reused connection: the `journaled N×`
    /// its cell starts with, and the cell.
    static func documented(_ client: String, _ method: String, reused: Bool) throws -> (times: Int, cell: String) {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/cli.md")
        for line in try String(contentsOf: page, encoding: .utf8).split(separator: "\n") {
            let cells = line.trimmingCharacters(in: CharacterSet(charactersIn: " |"))
                .split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, cells[0].hasPrefix(client), cells[1].hasPrefix(method) else { continue }
            let cell = cells[reused ? 3 : 2]
            guard cell.hasPrefix("journaled "), let times = cell.dropFirst("journaled ".count).first?.wholeNumberValue
            else { throw PageError(message: "docs/cli.md: \(client) \(method): no `journaled N×` in \(cell)") }
            return (times, cell)
        }
        throw PageError(message: "docs/cli.md has no retry-table row for \(client) \(method)")
    }

    struct PageError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
#endif
