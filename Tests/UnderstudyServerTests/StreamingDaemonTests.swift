import Foundation
import XCTest

/// Streamed responses read by real clients from the built daemon: an SSE client (URLSession, see
/// ``EventStreamClient``) and curl.
final class StreamingDaemonTests: XCTestCase {
    private func startDaemon(_ stubs: String) throws -> Daemon {
        let directory = NSTemporaryDirectory() + "understudy-stream-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        try stubs.write(toFile: directory + "/stubs.json", atomically: true, encoding: .utf8)
        return try Daemon(
            [directory + "/stubs.json", "--host", "127.0.0.1", "--port", "0", "--quiet"], directory: directory)
    }

    func testAnSSEClientReadsTheExampleStreamInOrderNoEarlierThanItsDelays() async throws {
        let example = try String(
            contentsOfFile: URL(fileURLWithPath: TestPaths.fixtures).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().path + "/stubs/server-sent-events.json",
            encoding: .utf8)
        let daemon = try startDaemon(example)
        let started = Date()
        let (events, contentType) = try await EventStreamClient.read(URL(string: daemon.url + "/examples/events")!)
        XCTAssertEqual(contentType, "text/event-stream")
        XCTAssertEqual(
            events.map(\.event),
            [
                .init(type: "status", data: "started", lastEventID: "1", retry: 2000),
                .init(type: "token", data: "Hello", lastEventID: "2", retry: nil),
                .init(type: "token", data: "world\nsecond line", lastEventID: "3", retry: nil),
            ])
        // Lower bounds: the second event 100 ms after the head, the third 200 ms after that.
        XCTAssertGreaterThanOrEqual(events[1].at.timeIntervalSince(started), 0.100)
        XCTAssertGreaterThanOrEqual(events[2].at.timeIntervalSince(started), 0.300)
        XCTAssertGreaterThanOrEqual(events[2].at.timeIntervalSince(events[0].at), 0.300 - 0.05)
    }

    func testATemplatedEventStreamEchoesTheRequest() async throws {
        let daemon = try startDaemon(
            #"""
            {"stubs":[{"request":{"path":"/chat"},"responses":[{"template":true,"events":[
              {"event":"echo","data":"you asked: {{request.query.q}}"},{"data":"{{server.url}}","delayMs":20}]}]}]}
            """#)
        let (events, _) = try await EventStreamClient.read(URL(string: daemon.url + "/chat?q=hello%20there")!)
        XCTAssertEqual(events.map(\.event.data), ["you asked: hello there", daemon.url])
        XCTAssertEqual(events.map(\.event.type), ["echo", "message"])
    }
}
