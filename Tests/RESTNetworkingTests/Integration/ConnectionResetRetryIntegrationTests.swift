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
/// it, and what the caller sees. docs/cli.md ("Faults and client retries") states these results;
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

    func testURLSessionOnAFreshConnectionReportsTheResetAndDoesNotRetry() async throws {
        for method in ["GET", "POST"] {
            let outcome = try await urlSessionCall(method, reused: false)
            XCTAssertEqual(outcome.code, .networkConnectionLost, method)
            let count = try await resets(method: method)
            XCTAssertEqual(count, 1, "\(method) on a fresh connection is sent once")
        }
    }

    /// libcurl sends a request again, once, on a new connection when a reused one dies before
    /// any answer byte: the GET is journaled twice and the caller sees the second reset.
    func testURLSessionRetriesAGETOnceOnAReusedConnection() async throws {
        let outcome = try await urlSessionCall("GET", reused: true)
        XCTAssertEqual(outcome.code, .networkConnectionLost, "the retry's reset, long before the timeout")
        let count = try await resets(method: "GET")
        XCTAssertEqual(count, 2, "the GET is sent twice: once on the reused connection, once on a new one")
    }

    /// libcurl retries the POST too, but FoundationNetworking cannot rewind an `httpBody` for it:
    /// the retry sends the head with `Content-Length` and no body, the daemon waits for the body
    /// that never comes, and the caller waits for its timeout. The daemon journals the first
    /// attempt only (the second never reached it whole).
    func testURLSessionHangsAReusedConnectionsPOSTUntilItsTimeout() async throws {
        let outcome = try await urlSessionCall("POST", reused: true)
        XCTAssertEqual(outcome.code, .timedOut, "not the reset: the retried POST without its body timed out")
        XCTAssertGreaterThanOrEqual(outcome.seconds, Self.timeout - 0.5, "it waited out the timeout")
        let count = try await resets(method: "POST")
        XCTAssertEqual(count, 1, "only the first attempt reached the daemon whole")
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

    /// AsyncHTTPClient never sends a request again on its own: one journal entry whatever the
    /// method or connection, and the reset reaches the caller at once.
    func testAsyncHTTPClientNeverRetriesAReset() async throws {
        for method in ["GET", "POST"] {
            for reused in [false, true] {
                let outcome = try await asyncHTTPClientCall(method, reused: reused)
                let what = "\(method) on a \(reused ? "reused" : "fresh") connection"
                print("AsyncHTTPClient \(what): \(String(reflecting: outcome.error)) after \(outcome.seconds) s")
                XCTAssertLessThan(outcome.seconds, Self.timeout, "\(what): the reset, not the timeout")
                let count = try await resets(method: method)
                XCTAssertEqual(count, reused ? 2 : 1, what)
                _ = try await understudy.admin.clearRequests()
            }
        }
    }
}
