import Foundation
import XCTest

/// Slowloris heads are cut off at the idle timeout however slowly they trickle, and requests
/// with conflicting Content-Length values are refused (RFC 9112 §6.3), against the real daemon.
final class TransportDeadlineTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    func testTricklingHeadIsClosedAtTheIdleTimeoutWhileOthersAreServed() throws {
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let timeout = 2.0
        let daemon = try Daemon([stubs, "--quiet", "--idle-timeout", "\(Int(timeout))"], directory: directory)
        let trickler = try TricklingSocket(port: daemon.port)
        let head =
            Array("GET /ok HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 200)
        let start = Date()
        var closedAfter: TimeInterval?
        var served = 0
        // One byte every 250 ms: each one would restart libevent's own read timeout.
        for byte in head {
            guard trickler.send(byte), !trickler.closed(waitingMilliseconds: 250) else {
                closedAfter = Date().timeIntervalSince(start)
                break
            }
            if HardeningFixtures.status(port: daemon.port, "/ok") == 200 { served += 1 }
            if Date().timeIntervalSince(start) > timeout + 5 { break }
        }
        let elapsed = try XCTUnwrap(
            closedAfter, "a head trickled for \(Date().timeIntervalSince(start)) s was never closed")
        XCTAssertGreaterThanOrEqual(elapsed, timeout - 0.1, "closed before the idle timeout")
        XCTAssertLessThanOrEqual(elapsed, timeout + 5)
        XCTAssertGreaterThan(served, 0, "another client was served while the head trickled")
        XCTAssertEqual(HardeningFixtures.status(port: daemon.port, "/ok"), 200)
        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0)
    }

    /// The deadline timer is made once per connection and re-armed for each request: requests
    /// answered in time never trip it, however long the connection lives, and a later request
    /// that trickles is still cut off at the timeout from its own first byte.
    func testEveryRequestOnAKeptAliveConnectionHasItsOwnDeadline() throws {
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let daemon = try Daemon([stubs, "--quiet", "--idle-timeout", "2"], directory: directory)
        let connection = try RawConnection(port: daemon.port)
        let start = Date()
        var answered = 0
        while Date().timeIntervalSince(start) < 2.5 {
            connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(
                connection.readResponse()?.status, 200,
                "request \(answered + 1) on a connection open for \(Date().timeIntervalSince(start)) s")
            answered += 1
            _ = connection.closed(waitingMilliseconds: 50)  // paces the requests; the server must not close
        }
        XCTAssertGreaterThan(answered, 10)
        // Answered after 1.5 s: its deadline was cancelled when it was handed over, so the idle
        // connection is not cut 2 s after that request began (only evhttp's idle timeout, 2 s
        // after the answer, would close it).
        let slowStart = Date()
        connection.send("GET /slower HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.status, 200)
        XCTAssertFalse(
            connection.closed(waitingMilliseconds: Int32(max(0, 2.6 - Date().timeIntervalSince(slowStart)) * 1000)),
            "closed by the answered request's deadline")
        connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.status, 200)
        // A later request that trickles is cut off at the timeout from its own first byte.
        let head =
            Array("GET /ok HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 100)
        let trickleStart = Date()
        var closedAfter: TimeInterval?
        for byte in head {
            connection.send([byte])
            if connection.closed(waitingMilliseconds: 250) {
                closedAfter = Date().timeIntervalSince(trickleStart)
                break
            }
        }
        let elapsed = try XCTUnwrap(closedAfter, "a trickled later head was never closed")
        XCTAssertGreaterThanOrEqual(elapsed, 1.9, "closed before the idle timeout")
        XCTAssertLessThanOrEqual(elapsed, 7)
        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0)
    }

    func testConflictingContentLengthsAreRefusedJournaledAndClosed() throws {
        let stubs = try HardeningFixtures.stubDirectory(in: directory)
        let journal = directory + "/journal.jsonl"
        let daemon = try Daemon([stubs, "--quiet", "--journal", journal], directory: directory)
        let conflicting = try RawConnection(port: daemon.port)
        conflicting.send("POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!")
        let response = try XCTUnwrap(conflicting.readResponse())
        XCTAssertEqual(response.status, 400)
        XCTAssertEqual(response.headers["connection"]?.lowercased(), "close")
        XCTAssertTrue(conflicting.readsEndOfStream(), "the connection is closed after the refusal")
        XCTAssertTrue(
            waitUntil { HardeningFixtures.journal(journal).contains { ($0["status"] as? Int) == 400 } },
            "the refusal is journaled")

        // The same value twice is unambiguous and accepted.
        let repeated = try RawConnection(port: daemon.port)
        repeated.send("POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello")
        XCTAssertEqual(repeated.readResponse()?.status, 201)
        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0)
    }
}

/// A raw socket that sends one byte at a time and notices the server closing it.
private final class TricklingSocket {
    private let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    /// False when the byte could not be written (the server has gone).
    func send(_ byte: UInt8) -> Bool {
        var value = byte
        return Glibc.send(fd, &value, 1, Int32(MSG_NOSIGNAL)) == 1
    }

    /// Waits up to `milliseconds` for the server to close (EOF or reset); true when it did.
    func closed(waitingMilliseconds milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
    }
}
