import Foundation
import UnderstudyCore
import UnderstudyServer
import XCTest

/// A connection reuses its previous request's header fields when the next request sends the same
/// bytes (`RequestHeaderCache`). Whatever changes between requests on one connection (a value, a
/// name's case, a field more or less, the order) must reach the engine and the journal as sent.
final class RequestHeaderCacheTests: XCTestCase {
    func testEveryRequestOnAConnectionIsSeenWithItsOwnHeaders() throws {
        let sink = LockedLines()
        let server = try BackgroundServer.start(configuration: ServerConfiguration()) {
            let stubs = #"{"stubs":[{"id":"t","request":{"path":"/t","headers":{"X-Token":{"equals":"b"}}},"responses":[{"status":200,"body":"b"}]},{"id":"any","request":{"path":"/t"},"responses":[{"status":200,"body":"other"}]}]}"#
            return UnderstudyResponder(stubs: try StubLoader.parse(bytes: Array(stubs.utf8), file: "cache.json", root: nil),
                                       configuration: EngineConfiguration(journalSink: sink))
        }
        defer { server.stop() }
        let blocks = [
            "Host: x\r\nX-Token: a\r\n",
            "Host: x\r\nX-Token: a\r\n",                  // the same bytes: reused
            "Host: x\r\nX-Token: b\r\n",                  // a value differs
            "Host: x\r\nx-token: b\r\n",                  // a name's case differs
            "Host: x\r\nx-token: b\r\nX-More: 1\r\n",     // a field more
            "Host: x\r\n",                                // fields fewer
            "X-Token: b\r\nHost: x\r\n",                  // the order differs
            "X-Token: b\r\nHost: x\r\n",
            "X-Token: bb\r\nHost: x\r\n",                 // a longer value with the same start
        ]
        let connection = try RawConnection(port: server.port)
        var bodies: [String] = []
        for block in blocks {
            connection.send("GET /t HTTP/1.1\r\n\(block)\r\n")
            bodies.append(try XCTUnwrap(connection.readResponse()).body)
        }
        XCTAssertEqual(bodies, ["other", "other", "b", "b", "b", "other", "b", "b", "other"])
        let journaled = sink.objects.map { $0["headers"] as? [String: [String]] ?? [:] }
        XCTAssertEqual(journaled, [
            ["host": ["x"], "x-token": ["a"]],
            ["host": ["x"], "x-token": ["a"]],
            ["host": ["x"], "x-token": ["b"]],
            ["host": ["x"], "x-token": ["b"]],
            ["host": ["x"], "x-token": ["b"], "x-more": ["1"]],
            ["host": ["x"]],
            ["x-token": ["b"], "host": ["x"]],
            ["x-token": ["b"], "host": ["x"]],
            ["x-token": ["bb"], "host": ["x"]],
        ])
        // The journal keeps the order fields came in: the reordered block is recorded reordered.
        let lines = sink.texts
        XCTAssertTrue(lines[6].contains(#""headers":{"x-token":["b"],"host":["x"]}"#), lines[6])
        XCTAssertTrue(lines[3].contains(#""headers":{"host":["x"],"x-token":["b"]}"#), lines[3])
    }
}
