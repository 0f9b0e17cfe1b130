import Foundation
import UnderstudyCore
import UnderstudyServer
import XCTest

/// The loop runs on epoll with libevent's changelist (`HTTPServer+EventBase.swift`), which defers
/// `epoll_ctl` to the end of a loop pass. Its documented hazard is a descriptor closed while the
/// kernel still has it registered; these drive the one place the transport closes a socket
/// behind evhttp's back (the `connection-reset` fault dup2's /dev/null over it) while new
/// connections take over the freed descriptor numbers, and check nothing is lost or stuck.
final class EventBaseTests: XCTestCase {
    func testTheLoopRunsOnEpollWithTheChangelist() throws {
        let server = try HTTPServer(
            configuration: ServerConfiguration(), responder: RecordingResponder(log: RequestLog()))
        XCTAssertEqual(server.eventBackend, "epoll (with changelist)")
    }

    func testResetsWhileNewConnectionsReuseTheirDescriptorsLoseNothing() throws {
        let log = RequestLog()
        let server = try BackgroundServer.start(configuration: ServerConfiguration()) { RecordingResponder(log: log) }
        defer { server.stop() }
        let steady = try RawConnection(port: server.port)
        for round in 1...60 {
            // Pipelined: an answer, then the reset, on one connection.
            let doomed = try RawConnection(port: server.port)
            doomed.send(
                "GET /echo?n=\(round) HTTP/1.1\r\nHost: x\r\n\r\nGET /fault/connection-reset HTTP/1.1\r\nHost: x\r\n\r\n"
            )
            // Half the rounds connect the next client before the reset happens, half after, so
            // the freed descriptor number is taken in the same loop pass or a later one.
            var early: RawConnection?
            if round % 2 == 0 { early = try RawConnection(port: server.port) }
            XCTAssertEqual(doomed.readResponse()?.headers["x-query"], "n=\(round)", "round \(round)")
            XCTAssertTrue(doomed.readsReset(), "round \(round): the fault must arrive as a reset")
            let fresh = try early ?? RawConnection(port: server.port)
            fresh.send("GET /echo?fresh=\(round) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(fresh.readResponse()?.headers["x-query"], "fresh=\(round)", "round \(round)")
            steady.send("GET /echo?steady=\(round) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(steady.readResponse()?.headers["x-query"], "steady=\(round)", "round \(round)")
        }
        XCTAssertEqual(log.entries.count, 60 * 4)
    }
}
