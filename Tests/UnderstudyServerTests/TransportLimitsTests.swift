import Foundation
import UnderstudyCore
import UnderstudyServer
import XCTest

/// Header size limit and idle connection timeout, seen from a raw socket.
final class TransportLimitsTests: XCTestCase {
    /// Header fields past `maxHeaderBytes` get 431 (RFC 6585 §5), are journaled once as refused
    /// with the reason, and the connection closes.
    func testHeaderFieldsOverTheLimitGet431AndAreJournaledAsRefused() throws {
        let log = RequestLog()
        let server = try BackgroundServer.start(configuration: ServerConfiguration(maxHeaderBytes: 1024)) {
            RecordingResponder(log: log)
        }
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /echo HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 2000))\r\n\r\n")
        let refused = try XCTUnwrap(connection.readResponse())
        XCTAssertEqual(refused.status, 431)
        XCTAssertTrue(refused.body.contains("larger than 1024 bytes"), refused.body)
        XCTAssertTrue(connection.readsEndOfStream())
        XCTAssertEqual(log.entries.map(\.rejectedWith), [431])
        XCTAssertEqual(log.entries.first?.request.path, "/echo")

        let fine = try RawConnection(port: server.port)
        fine.send("GET /echo HTTP/1.1\r\nHost: x\r\nX-Small: \(String(repeating: "s", count: 500))\r\n\r\n")
        XCTAssertEqual(fine.readResponse()?.status, 200)
        // A request line past its own limit gets 414.
        let long = try RawConnection(port: server.port)
        long.send("GET /\(String(repeating: "l", count: 70_000)) HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(long.readResponse()?.status, 414)
    }

    func testIdleConnectionsAreClosedAfterTheTimeout() throws {
        let server = try BackgroundServer.start(configuration: ServerConfiguration(idleTimeoutSeconds: 1)) {
            RecordingResponder(log: RequestLog())
        }
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /echo HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.status, 200)
        let start = Date()
        XCTAssertTrue(connection.readsEndOfStream(), "closed by the server, not by the 5 s read timeout")
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(elapsed, 0.9)
        XCTAssertLessThan(elapsed, 4)
    }
}
