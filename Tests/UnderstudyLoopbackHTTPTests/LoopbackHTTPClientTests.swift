import Foundation
import Testing
import UnderstudyLoopbackHTTP
import UnderstudyTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exchanges with the real daemon (a session of the process-wide one, over 127.0.0.1): the
/// framings it sends, and the faults it breaks connections with, read as the errors they are.
@Suite(
    "UnderstudyLoopbackHTTP: exchanges with the real daemon",
    .understudy(
        Stub.get("/loop/plain").respond(.text("plain body").header("X-Kind", "plain")),
        Stub.post("/loop/post").respond(.status(201)),
        Stub.get("/loop/chunked").respond(
            .text("abcdefgh").header("Transfer-Encoding", "chunked").dribble(chunks: 4, overMilliseconds: 40)),
        Stub.get("/loop/malformed").respond(.fault(.malformedResponse)),
        Stub.get("/loop/empty").respond(.fault(.emptyResponse)),
        Stub.get("/loop/cut").respond(.text("twelve bytes").fault(.closeAfterHeaders)),
        Stub.get("/loop/bad-chunk").respond(.fault(.malformedResponseChunk)),
        Stub.get("/loop/reset").respond(.fault(.connectionReset)),
        Stub.get("/loop/stall").respond(.fault(.flowControlStall))
    ))
struct LoopbackHTTPClientTests {
    private func client(timeout: Double = 10) throws -> LoopbackHTTPClient {
        let understudy = try #require(Understudy.current)
        return try #require(LoopbackHTTPClient(url: understudy.baseURL.absoluteString, timeout: timeout))
    }

    /// The error a `GET path` ends with; nil (and an issue) when it is answered.
    private func failure(of path: String, timeout: Double = 10) throws -> LoopbackHTTPError? {
        do {
            let response = try client(timeout: timeout).exchange(method: "GET", target: path)
            Issue.record("\(path) answered \(response.status)")
            return nil
        } catch let error as LoopbackHTTPError {
            return error
        }
    }

    @Test func aStubsAnswerAnAdminCallAndAPostedBodyGoThrough() async throws {
        let understudy = try #require(Understudy.current)
        let plain = try client().exchange(method: "GET", target: "/loop/plain")
        #expect(plain.status == 200)
        #expect(plain.header("x-kind") == "plain")
        #expect(plain.header("Content-Length") == "10")
        #expect(plain.body == Array("plain body".utf8))

        let body = Array(#"{"name":"value"}"#.utf8)
        let posted = try client().exchange(
            method: "POST", target: "/loop/post?q=1", headers: [("Content-Type", "application/json")], body: body)
        #expect(posted.status == 201)
        // The daemon's journal says what arrived: the body, its length, the query.
        let recorded = try #require(try await understudy.admin.requests(path: "/loop/post").last)
        #expect(recorded.body == #"{"name":"value"}"#)
        #expect(recorded.query == "q=1")
        #expect(recorded.headers.first { $0.key.lowercased() == "content-length" }?.value == ["\(body.count)"])

        let health = try client().exchange(method: "GET", target: "/__admin/health")
        #expect(health.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(health.body)) as? [String: Any])
        #expect(json["status"] as? String == "ok", "\(json)")
        let missing = try client().exchange(method: "GET", target: "/__admin/no-such-route")
        #expect(missing.status == 404)
    }

    @Test func aChunkedPacedBodyArrivesWhole() throws {
        let response = try client().exchange(method: "GET", target: "/loop/chunked")
        #expect(response.status == 200)
        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(response.header("Content-Length") == nil)
        #expect(response.body == Array("abcdefgh".utf8))
    }

    @Test func theDaemonsFaultsAreMalformedTruncatedOrReset() throws {
        let malformed = try #require(try failure(of: "/loop/malformed"))
        guard case .malformedResponse(let garbage) = malformed else { throw Unexpected(error: malformed) }
        #expect(garbage.contains("not an HTTP/1.x status line"), "\(garbage)")

        let empty = try #require(try failure(of: "/loop/empty"))
        #expect(empty == .truncatedResponse("the connection closed without a response"))

        let cut = try #require(try failure(of: "/loop/cut"))
        #expect(cut == .truncatedResponse("the connection closed after 0 of 12 body bytes"))

        let badChunk = try #require(try failure(of: "/loop/bad-chunk"))
        guard case .malformedResponse(let chunk) = badChunk else { throw Unexpected(error: badChunk) }
        #expect(chunk.hasPrefix("not a chunk-size line"), "\(chunk)")

        let reset = try #require(try failure(of: "/loop/reset"))
        guard case .connectionFailed(_, _, .receiving, let reason) = reset else { throw Unexpected(error: reset) }
        #expect(reason == String(cString: strerror(ECONNRESET)))
    }

    @Test func aStalledResponseTimesOutAtTheDeadline() throws {
        let started = ContinuousClock.now
        let stalled = try #require(try failure(of: "/loop/stall", timeout: 0.5))
        let elapsed = ContinuousClock.now - started
        guard case .timedOut(_, _, 0.5, .receiving) = stalled else { throw Unexpected(error: stalled) }
        // A lower bound only: the deadline is never cut short, however loaded the machine.
        #expect(elapsed >= .milliseconds(500), "\(elapsed)")
    }

    @Test func aPortNobodyListensOnIsRefused() throws {
        // Bound, never listening: nothing can take the port meanwhile, and a connect is refused.
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        do {
            _ = try LoopbackHTTPClient(host: "127.0.0.1", port: port, timeout: 5).exchange(method: "GET", target: "/")
            Issue.record("a port nobody listens on answered")
        } catch {
            #expect(error == .connectionRefused(host: "127.0.0.1", port: port))
        }
    }

    private struct Unexpected: Error, CustomStringConvertible {
        var error: LoopbackHTTPError
        var description: String { "unexpected error: \(error)" }
    }
}
