import Foundation
import Testing
import UnderstudyTesting

/// Issue 15's response fields by what the daemon does with them: the client's bytes, the raw
/// status line, and the journal's `stream`, `delayMs` and `fault`.
extension StubBuilderTests {
    /// The journal entries of `path`, as raw JSON (`stream` has no typed field).
    private static func journal(_ path: String, on understudy: Understudy) async throws -> [JSONValue] {
        try await Exchange.adminJSON("/__admin/requests?path=\(path)", on: understudy)["requests"]?.arrayValue ?? []
    }

    @Test func templatedRendersPerRequestAndUntemplatedStaysText() async throws {
        let understudy = try #require(Understudy.current)
        try await understudy.install(
            Stub.get("/r/tpl").respond(
                .text("path={{request.path}} x={{request.query.x}}").header("X-Method", "{{request.method}}")
                    .templated(),
                .text("path={{request.path}}").templated(false)
            ))
        let rendered = try await Exchange.send("GET", "/r/tpl?x=7", to: understudy)
        #expect(String(decoding: rendered.body, as: UTF8.self) == "path=/r/tpl x=7")
        #expect(rendered.response.value(forHTTPHeaderField: "X-Method") == "GET")
        let literal = try await Exchange.send("GET", "/r/tpl?x=8", to: understudy)
        #expect(String(decoding: literal.body, as: UTF8.self) == "path={{request.path}}")
    }

    @Test func statusMessageIsTheReasonPhraseSent() async throws {
        let understudy = try #require(Understudy.current)
        try await understudy.install(Stub.get("/r/msg").respond(.status(299).statusMessage("Mostly Fine").text("ok")))
        let answer = String(decoding: try RawHTTP.get("/r/msg", on: understudy), as: UTF8.self)
        let statusLine = answer.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        #expect(statusLine == "HTTP/1.1 299 Mostly Fine", "\(answer)")
    }

    @Test func eventsAreTheEventStream() async throws {
        let understudy = try #require(Understudy.current)
        try await understudy.install(
            Stub.get("/r/sse").respond(
                .events([
                    .init(event: "tick", data: "1", id: "a", retry: 500, comment: "hi"),
                    .init(data: "two\nlines", delayMs: 30),
                ])))
        let answer = try await Exchange.send("GET", "/r/sse", to: understudy)
        #expect(
            String(decoding: answer.body, as: UTF8.self)
                == ": hi\nevent: tick\nid: a\nretry: 500\ndata: 1\n\ndata: two\ndata: lines\n\n")
        #expect(answer.response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/event-stream") == true)
        #expect(try await Self.journal("/r/sse", on: understudy).first?["stream"]?.stringValue == "events")
    }

    /// Paced bodies arrive whole, no sooner than their pacing allows, and the journal names how
    /// they were paced.
    @Test func dribbleAndBytesPerSecondPaceTheBody() async throws {
        let understudy = try #require(Understudy.current)
        try await understudy.install(
            Stub.get("/r/dribble").respond(.text("abcdefgh").dribble(chunks: 4, overMilliseconds: 300)),
            Stub.get("/r/throttle").respond(.text(String(repeating: "x", count: 40)).bytesPerSecond(100))
        )
        let clock = ContinuousClock()
        var start = clock.now
        let dribbled = try await Exchange.send("GET", "/r/dribble", to: understudy)
        // The last piece goes 300 ms after the first; the margin only allows timer coarseness.
        #expect(clock.now - start >= .milliseconds(250))
        #expect(String(decoding: dribbled.body, as: UTF8.self) == "abcdefgh")
        start = clock.now
        let throttled = try await Exchange.send("GET", "/r/throttle", to: understudy)
        // 40 bytes at 100 B/s is 400 ms, less the first piece that goes at once (5 bytes, 50 ms).
        #expect(clock.now - start >= .milliseconds(300))
        #expect(throttled.body == Data(repeating: UInt8(ascii: "x"), count: 40))
        #expect(try await Self.journal("/r/dribble", on: understudy).first?["stream"]?.stringValue == "dribble")
        #expect(try await Self.journal("/r/throttle", on: understudy).first?["stream"]?.stringValue == "throttle")
    }

    @Test func aUniformDelayIsDrawnWithinItsRange() async throws {
        let understudy = try #require(Understudy.current)
        try await understudy.install(Stub.get("/r/delay").respond(.status(200).delay(.uniform(min: 40, max: 80))))
        for _ in 0..<4 { _ = try await Exchange.send("GET", "/r/delay", to: understudy) }
        let delays = try await understudy.admin.requests(path: "/r/delay").compactMap(\.delayMs)
        #expect(delays.count == 4)
        #expect(delays.allSatisfy { (40...80).contains($0) }, "\(delays)")
    }

    /// The two faults, over a raw socket (URLSession would retry the GET): what arrived, and the
    /// journal's `fault` and `status`.
    @Test func randomDataAndMalformedChunkFaultsBreakTheConnection() async throws {
        let understudy = try #require(Understudy.current)
        try await understudy.install(
            Stub.get("/r/random").respond(.fault(.randomDataThenClose)),
            Stub.get("/r/chunk").respond(.fault(.malformedResponseChunk))
        )
        let random = try RawHTTP.get("/r/random", on: understudy)
        #expect(!random.isEmpty && !random.starts(with: Array("HTTP/".utf8)), "bytes that are not HTTP")
        let chunk = String(decoding: try RawHTTP.get("/r/chunk", on: understudy), as: UTF8.self)
        #expect(chunk.hasPrefix("HTTP/1.1 200"), "\(chunk)")
        #expect(chunk.lowercased().contains("transfer-encoding: chunked"), "\(chunk)")
        let randomEntry = try #require(try await understudy.admin.requests(path: "/r/random").first)
        #expect(randomEntry.fault == "random-data-then-close")
        #expect(randomEntry.status == nil, "no status line was sent")
        let chunkEntry = try #require(try await understudy.admin.requests(path: "/r/chunk").first)
        #expect(chunkEntry.fault == "malformed-response-chunk")
        #expect(chunkEntry.status == 200, "the head went out")
    }
}
