import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyCore
import UnderstudyServer
import XCTest

/// The transport driven by URLSession, curl and raw sockets, with a recording responder.
final class TransportTests: XCTestCase {
    private var log: RequestLog!
    private var server: BackgroundServer!
    private var client: HTTPClient!

    override func setUpWithError() throws {
        try startServer(ServerConfiguration())
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func startServer(_ configuration: ServerConfiguration) throws {
        server?.stop()
        let log = RequestLog()
        self.log = log
        server = try BackgroundServer.start(configuration: configuration) { RecordingResponder(log: log) }
        client = HTTPClient(base: server.url)
    }

    func testBindsLoopbackOnARealPortReadBackFromTheSocket() throws {
        XCTAssertGreaterThan(server.port, 0)
        XCTAssertEqual(server.url, "http://127.0.0.1:\(server.port)")
        XCTAssertThrowsError(
            try BackgroundServer.start(configuration: ServerConfiguration(port: server.port)) {
                RecordingResponder(log: RequestLog())
            }
        ) { error in
            guard case ServerError.bindFailed(_, let port, let code, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(port, self.server.port)
            XCTAssertEqual(code, EADDRINUSE)
        }
    }

    func testEveryResponseFieldReachesURLSession() async throws {
        let fetched = try await client.fetch("/headers")
        XCTAssertEqual(fetched.status, 203)
        XCTAssertEqual(fetched.header("Content-Type"), "application/json")
        XCTAssertEqual(fetched.header("X-Repeated"), "one, two")  // URLSession folds repeated fields
        XCTAssertEqual(fetched.header("Set-Cookie"), "a=1")
        XCTAssertEqual(fetched.header("Content-Length"), "11")
        XCTAssertEqual(fetched.text, "{\"ok\":true}")
    }

    func testRepeatedHeadersStaySeparateOnTheWireAndNoContentTypeIsInvented() throws {
        let result = try curl(["-i", server.url + "/headers"])
        let lines = result.stdout.components(separatedBy: "\r\n")
        XCTAssertEqual(lines.first, "HTTP/1.1 203 Non-Authoritative Information")
        XCTAssertEqual(lines.filter { $0.hasPrefix("X-Repeated:") }, ["X-Repeated: one", "X-Repeated: two"])
        let echoed = try curl(["-i", server.url + "/echo"])
        XCTAssertFalse(echoed.stdout.lowercased().contains("content-type"), echoed.stdout)
    }

    func testRequestReachesTheResponderAsSent() async throws {
        let body = Data("{\"name\":\"Ada\"}".utf8)
        let fetched = try await client.fetch(
            "/echo/%7Bid%7D?page=2&sort=desc", method: "POST", body: body,
            headers: ["Content-Type": "application/json", "X-Trace": "abc"])
        XCTAssertEqual(fetched.status, 200)
        XCTAssertEqual(fetched.body, body)
        let request = try XCTUnwrap(log.entries.last?.request)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.path, "/echo/%7Bid%7D")
        XCTAssertEqual(request.query, "page=2&sort=desc")
        XCTAssertEqual(request.headers["x-trace"], "abc")
        XCTAssertEqual(request.headers["Content-Type"], "application/json")
        XCTAssertEqual(request.body, Array(body))
    }

    func testAnyMethodIncludingPatchOptionsAndCustomTokens() throws {
        for method in ["PATCH", "OPTIONS", "DELETE", "PURGE", "X-CUSTOM"] {
            let result = try curl(["-i", "-X", method, "--data-binary", "payload-\(method)", server.url + "/echo"])
            XCTAssertEqual(result.exitCode, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains("X-Method: \(method)"), result.stdout)
            XCTAssertTrue(result.stdout.hasSuffix("payload-\(method)"), result.stdout)
        }
        XCTAssertEqual(log.entries.map(\.request.method), ["PATCH", "OPTIONS", "DELETE", "PURGE", "X-CUSTOM"])
        XCTAssertEqual(log.entries.last?.request.body, Array("payload-X-CUSTOM".utf8))
    }

    func testHeadAnd204AnswersCarryNoBodySoTheNextResponseOnTheConnectionIsIntact() throws {
        let connection = try RawConnection(port: server.port)
        connection.send(
            "HEAD /status/200 HTTP/1.1\r\nHost: x\r\n\r\nGET /status/204 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /status/201 HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = connection.readResponse()
        XCTAssertEqual(head?.status, 200)
        XCTAssertNil(head?.headers["content-length"])
        let noContent = connection.readResponse()
        XCTAssertEqual(noContent?.status, 204)
        XCTAssertNil(noContent?.headers["content-length"])
        let next = connection.readResponse()
        XCTAssertEqual(next?.status, 201, "no stray body bytes ahead of the third response")
        XCTAssertEqual(next?.headers["content-length"], "6")
        XCTAssertEqual(next?.body, "status")
    }

    func testCustomMethodWithoutBodyKeepsTheConnectionUsable() throws {
        let connection = try RawConnection(port: server.port)
        connection.send("PURGE /cache HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?after=purge HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.headers["x-method"], "PURGE")
        XCTAssertEqual(connection.readResponse()?.headers["x-query"], "after=purge")
    }

    /// The parser reads a head and body that arrive a byte at a time as it reads them whole: an
    /// unknown method keeps its name and body, the next pipelined request stays in step, a folded
    /// line is refused (RFC 9112 §5.2) and a body over the limit is refused, each journaled once.
    func testHeadsTrickledAByteAtATimeAreReadAsWhole() throws {
        try startServer(ServerConfiguration(maxBodyBytes: 64))
        let connection = try RawConnection(port: server.port)
        for byte in "PURGE /cache?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello".utf8 {
            connection.send([byte])
        }
        for byte in "GET /echo?after=purge HTTP/1.1\r\nHost: x\r\nX-A: a\r\n\r\n".utf8 { connection.send([byte]) }
        let purge = try XCTUnwrap(connection.readResponse())
        XCTAssertEqual(purge.headers["x-method"], "PURGE")
        XCTAssertEqual(purge.headers["x-query"], "x=1")
        XCTAssertEqual(purge.body, "hello")
        XCTAssertEqual(connection.readResponse()?.headers["x-query"], "after=purge")

        let folded = try RawConnection(port: server.port)
        for byte in "GET /folded HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n".utf8 { folded.send([byte]) }
        let foldedAnswer = try XCTUnwrap(folded.readResponse())
        XCTAssertEqual(foldedAnswer.status, 400)
        XCTAssertTrue(foldedAnswer.body.contains("obs-fold"), foldedAnswer.body)

        let refused = try RawConnection(port: server.port)
        for byte in "POST /upload?y=2 HTTP/1.1\r\nHost: x\r\nContent-Length: 65\r\n\r\n".utf8 { refused.send([byte]) }
        XCTAssertEqual(refused.readResponse()?.status, 413)
        XCTAssertEqual(log.entries.map(\.request.method), ["PURGE", "GET", "GET", "POST"])
        XCTAssertEqual(log.entries.map(\.rejectedWith), [nil, nil, 400, 413])
        XCTAssertEqual(log.entries.last?.request.query, "y=2")
    }

    func testChunkedRequestBodies() throws {
        let payload = String(repeating: "chunk-", count: 5000)
        let result = try curl(
            ["-H", "Transfer-Encoding: chunked", "--data-binary", "@-", server.url + "/echo"],
            input: Data(payload.utf8))
        XCTAssertEqual(result.stdout, payload)
        let connection = try RawConnection(port: server.port)
        connection.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        )
        let response = try XCTUnwrap(connection.readResponse())
        XCTAssertEqual(response.body, "hello world")
    }

    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        let connection = try RawConnection(port: server.port)
        for index in 1...3 {
            connection.send("GET /echo?n=\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try XCTUnwrap(connection.readResponse(), "response \(index)")
            XCTAssertEqual(response.headers["x-query"], "n=\(index)")
            XCTAssertNil(response.headers["connection"])
        }
        // Pipelined: both answered, in order.
        connection.send("GET /echo?n=4 HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?n=5 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.headers["x-query"], "n=4")
        XCTAssertEqual(connection.readResponse()?.headers["x-query"], "n=5")
        // curl reuses its connection: the second transfer opens none.
        let result = try curl([
            "-o", "/dev/null", "-o", "/dev/null", "-w", "%{num_connects}\n",
            server.url + "/echo", server.url + "/echo",
        ])
        XCTAssertEqual(result.stdout.split(separator: "\n"), ["1", "0"])
    }

    func testBodyOverTheLimitGets413AndIsJournaled() throws {
        try startServer(ServerConfiguration(maxBodyBytes: 1024))
        let small = try curl([
            "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", String(repeating: "a", count: 1024),
            server.url + "/echo",
        ])
        XCTAssertEqual(small.stdout, "200")
        let big = try curl(
            ["-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@-", server.url + "/upload?x=1"],
            input: Data(repeating: 65, count: 5000))
        XCTAssertEqual(big.stdout, "413")
        let chunked = try curl(
            [
                "-o", "/dev/null", "-w", "%{http_code}", "-H", "Transfer-Encoding: chunked",
                "--data-binary", "@-", server.url + "/chunked-upload",
            ], input: Data(repeating: 66, count: 5000))
        XCTAssertEqual(chunked.stdout, "413")
        let rejected = log.entries.filter { $0.rejectedWith != nil }
        XCTAssertEqual(rejected.map(\.rejectedWith), [413, 413])
        XCTAssertEqual(rejected.map(\.request.path), ["/upload", "/chunked-upload"])
        XCTAssertEqual(rejected.first?.request.query, "x=1")
        XCTAssertEqual(rejected.first?.request.method, "POST")
        XCTAssertEqual(rejected.first?.request.headers["Content-Length"], "5000")
        XCTAssertEqual(log.entries.count, 3, "the accepted request plus the two refused ones, each once")
    }

    func testDelaysRunOnTimersAndOverlap() async throws {
        let client = self.client!
        let (results, elapsed) = try await timed {
            async let first = timed { try await client.fetch("/delay/300") }
            async let second = timed { try await client.fetch("/delay/300") }
            return try await [first, second]
        }
        for (fetched, milliseconds) in results {
            XCTAssertEqual(fetched.status, 200)
            XCTAssertGreaterThanOrEqual(milliseconds, 300)
        }
        XCTAssertLessThan(elapsed, 550, "two 300 ms delays must overlap")
    }

    func testADelayedResponseDoesNotHoldUpOthers() async throws {
        let client = self.client!
        async let slow = client.fetch("/delay/1500")
        let (fast, milliseconds) = try await timed { try await client.fetch("/echo") }
        XCTAssertEqual(fast.status, 200)
        XCTAssertLessThan(milliseconds, 1000)
        let slowStatus = try await slow.status
        XCTAssertEqual(slowStatus, 200)
    }

    func testFaultsAsURLSessionSeesThem() async throws {
        // What FoundationNetworking (libcurl underneath) reports on Linux, observed and pinned:
        // reset -> networkConnectionLost (-1005); empty reply -> badServerResponse (-1011);
        // bytes that are not HTTP -> unsupportedURL (-1002, libcurl's "Received HTTP/0.9 when not
        // allowed"); a body cut short of its Content-Length -> unknown (-1, "transfer closed with
        // N bytes remaining to read"). Apple platforms map some of these differently.
        let reset = await client.failure("/fault/connection-reset")
        let empty = await client.failure("/fault/empty-response")
        let malformed = await client.failure("/fault/malformed-response")
        let truncated = await client.failure("/fault/close-after-headers")
        XCTAssertEqual(reset?.code, .networkConnectionLost, "\(String(describing: reset))")
        XCTAssertEqual(empty?.code, .badServerResponse, "\(String(describing: empty))")
        XCTAssertEqual(malformed?.code, .unsupportedURL, "\(String(describing: malformed))")
        XCTAssertEqual(truncated?.code, .unknown, "\(String(describing: truncated))")
        XCTAssertTrue(
            truncated?.localizedDescription.contains("remaining") ?? false, "\(String(describing: truncated))")
        XCTAssertEqual(log.entries.count, 4)
        let after = try await client.fetch("/echo")
        XCTAssertEqual(after.status, 200, "the server carries on after faults")
    }

    func testFaultsAsCurlSeesThem() throws {
        let codes = try ["connection-reset", "empty-response", "malformed-response", "close-after-headers"].map {
            try curl(["-o", "/dev/null", server.url + "/fault/\($0)"])
        }
        XCTAssertEqual(codes[0].exitCode, 56, codes[0].stderr)  // recv failure: connection reset by peer
        XCTAssertTrue(codes[0].stderr.contains("reset"), codes[0].stderr)
        XCTAssertEqual(codes[1].exitCode, 52, codes[1].stderr)  // empty reply from server
        XCTAssertEqual(codes[2].exitCode, 1, codes[2].stderr)  // "Received HTTP/0.9 when not allowed"
        XCTAssertEqual(codes[3].exitCode, 18, codes[3].stderr)  // transfer closed with bytes remaining
        let head = try curl(["-i", server.url + "/fault/close-after-headers"])
        XCTAssertTrue(head.stdout.hasPrefix("HTTP/1.1 200 OK\r\n"), head.stdout)
        XCTAssertTrue(head.stdout.contains("Content-Length: 10\r\n"), head.stdout)
    }

    func testAClientThatHangsUpMidDelayDoesNotWedgeTheServer() throws {
        do {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /delay/200 HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertTrue(waitUntil { self.log.entries.count == 1 })
        }  // closed here, before the delay ends
        let result = try curl(["-o", "/dev/null", "-w", "%{http_code}", server.url + "/delay/300"])
        XCTAssertEqual(result.stdout, "200")
        // Nothing is left in flight, so stopping does not wait out the grace period.
        let start = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testGracefulStopFinishesInFlightDelayedResponses() async throws {
        let client = self.client!
        async let delayed = client.fetch("/delay/400")
        XCTAssertTrue(waitUntil { self.log.entries.count == 1 })
        server.requestStop()
        let fetched = try await delayed
        XCTAssertEqual(fetched.status, 200)
        XCTAssertEqual(fetched.text, "delayed")
        XCTAssertEqual(fetched.header("Connection"), "close")
        server.stop()
        XCTAssertThrowsError(try RawConnection(port: server.port), "no longer accepting")
    }

    func testAccessLogHasMethodPathStatusStubAndTime() async throws {
        server.stop()
        let lines = LineSink()
        let log = RequestLog()
        server = try BackgroundServer.start(accessLog: { lines.append($0) }) { RecordingResponder(log: log) }
        client = HTTPClient(base: server.url)
        _ = try await client.fetch("/headers?x=1")
        _ = await client.failure("/fault/empty-response")
        // libcurl retries a request once when a reused connection dies without an answer, so the
        // fault may be logged twice.
        XCTAssertTrue(waitUntil { lines.entries.count >= 2 }, "\(lines.entries)")
        let first = try XCTUnwrap(lines.entries.first)
        XCTAssertEqual(first.method, "GET")
        XCTAssertEqual(first.target, "/headers?x=1")
        XCTAssertEqual(first.status, 203)
        XCTAssertEqual(first.stubID, "headers-stub")
        XCTAssertTrue(first.line.hasPrefix("GET /headers?x=1 203 headers-stub "), first.line)
        XCTAssertTrue(first.line.hasSuffix("ms"), first.line)
        XCTAssertEqual(
            lines.entries.dropFirst().map(\.fault), Array(repeating: .emptyResponse, count: lines.entries.count - 1))
    }
}

/// Access-log entries collected from the server thread.
final class LineSink: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [AccessLogEntry] = []

    func append(_ entry: AccessLogEntry) {
        lock.lock()
        defer { lock.unlock() }
        storage.append(entry)
    }

    var entries: [AccessLogEntry] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
