import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyTesting

/// `RecordedRequest` tells what the daemon really did (issue 9, journal truth; issue 16,
/// responses in the journal), and `stop()` does not wait for an answer nobody will read.
@Suite("RecordedRequest: what was sent")
struct RecordedResponseTests {
    static let stubs = """
        {
          "stubs": [
            { "id": "truth-ok", "request": { "path": "/truth/ok" },
              "responses": [ { "status": 201, "headers": { "X-Kind": "ok" }, "json": { "ok": true } } ] },
            { "id": "truth-reset", "request": { "path": "/truth/reset" },
              "responses": [ { "status": 503, "fault": "connection-reset" } ] },
            { "id": "truth-late", "request": { "path": "/truth/late" },
              "responses": [ { "status": 200, "delayMs": 20000, "body": "late" } ] }
          ]
        }
        """

    static func get(_ path: String, from understudy: Understudy, timeout: TimeInterval = 10) async throws -> (Int, Data)
    {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let (data, response) = try await URLSession(configuration: configuration)
            .data(from: URL(string: understudy.baseURL.absoluteString + path)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @Test func answersFaultsAndDepartedClientsAreRecordedAsTheyHappened() async throws {
        let understudy = try await Understudy.launch(stubs: [try Fixtures.write(Self.stubs)])
        defer { understudy.stopWithoutWaiting() }

        let (status, body) = try await Self.get("/truth/ok", from: understudy)
        #expect(status == 201)
        await #expect(throws: (any Error).self) { try await Self.get("/truth/reset", from: understudy) }
        // The client gives up after a second; the answer was due after twenty.
        // (FoundationNetworking on Linux times out at once below one second, so one second it is.)
        await #expect(throws: (any Error).self) { try await Self.get("/truth/late", from: understudy, timeout: 1) }

        var requests: [RecordedRequest] = []
        for _ in 0..<500 where requests.count < 3 {  // the hang-up is journaled as the daemon notices it
            requests = try await understudy.admin.requests()
            if requests.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(requests.map(\.path) == ["/truth/ok", "/truth/reset", "/truth/late"])

        let ok = requests[0]
        #expect(ok.outcome == .answered)
        #expect(ok.status == 201)
        let response = try #require(ok.response)
        #expect(response.status == 201)
        #expect(response.header("X-Kind") == "ok")
        #expect(response.header("Content-Length") == String(body.count))
        #expect(response.bodyData == body)
        #expect(response.bodySize == body.count)
        #expect(!response.truncated)

        let reset = requests[1]
        #expect(reset.outcome == .fault)
        #expect(reset.fault == "connection-reset")
        #expect(reset.status == nil, "no status line was sent")
        #expect(reset.response == nil)

        let late = requests[2]
        #expect(late.outcome == .clientGone)
        #expect(late.status == nil)
        #expect(late.response == nil)
        #expect(late.delayMs == 20000)
        #expect(try #require(late.outcomeMs) - late.elapsedMs >= 800, "the client waited about a second")

        let started = Date()
        #expect(await understudy.stop() == 0)
        #expect(Date().timeIntervalSince(started) < 2.5, "no answer is left to wait for")
    }

    /// curl's h2c with prior knowledge, then URLSession (HTTP/1.1 on Linux): the kit reads which
    /// protocol and stream each request came on.
    @Test func theProtocolAndStreamEachRequestCameOnAreRead() async throws {
        let understudy = try await Understudy.launch(stubs: [try Fixtures.write(Self.stubs)])
        defer { understudy.stopWithoutWaiting() }

        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = [
            "-sS", "-o", "/dev/null", "--http2-prior-knowledge", "--max-time", "10",
            understudy.baseURL.absoluteString + "/truth/ok",
        ]
        try curl.run()
        curl.waitUntilExit()
        #expect(curl.terminationStatus == 0)
        let (status, _) = try await Self.get("/truth/ok", from: understudy)
        #expect(status == 201)

        let requests = try await understudy.admin.requests()
        try #require(requests.count == 2)
        #expect(requests[0].protocol == "HTTP/2")
        #expect(requests[0].httpVersion == "HTTP/2")
        #expect(requests[0].streamId == 1, "curl's first stream")
        #expect(requests[1].protocol == nil)
        #expect(requests[1].httpVersion == "HTTP/1.1")
        #expect(requests[1].streamId == nil)
    }
}
