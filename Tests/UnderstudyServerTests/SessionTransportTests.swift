import Foundation
import UnderstudyCore
import UnderstudyServer
import XCTest

/// Sessions on the real transport, in process: each session's evhttp listens on its own port on
/// the server's loop; deleting it closes the port and its connections; long polls are deferred
/// replies that answer once, are freed when their client hangs up, and do not hold up a stop.
final class SessionTransportTests: XCTestCase {
    private var server: BackgroundServer!

    override func setUpWithError() throws {
        let stubs =
            #"{"stubs": [{"id": "hi", "request": {"path": "/hi"}, "responses": [{"status": 200, "body": "hi"}]}]}"#
        server = try BackgroundServer.start {
            let set = try StubLoader.parse(bytes: Array(stubs.utf8), file: "test.json", root: nil)
            let responder = UnderstudyResponder(stubs: set)
            responder.enableSessions(SessionLimits(maxSessions: 500, idleTimeoutSeconds: nil))
            return responder
        }
    }

    override func tearDown() {
        server?.stop()
    }

    private func createSession(_ body: String = "") throws -> (id: String, port: Int) {
        let connection = try RawConnection(port: server.port)
        connection.send(
            "POST /__admin/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let response = try XCTUnwrap(connection.readResponse())
        XCTAssertEqual(response.status, 201, response.body)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any])
        return (try XCTUnwrap(object["id"] as? String), try XCTUnwrap(object["port"] as? Int))
    }

    private func call(_ port: Int, _ method: String, _ target: String) throws -> (status: Int, body: String) {
        let connection = try RawConnection(port: port)
        connection.send("\(method) \(target) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let response = try XCTUnwrap(connection.readResponse(), "\(method) \(target) on \(port)")
        return (response.status, response.body)
    }

    private func refuses(_ port: Int) -> Bool {
        do {
            _ = try RawConnection(port: port)
            return false
        } catch {
            return true
        }
    }

    private func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    func testASessionServesOnItsOwnPortUntilDeleted() throws {
        let session = try createSession(
            #"{"stubs": [{"id": "own", "request": {"path": "/own"}, "responses": [{"status": 201}]}]}"#)
        XCTAssertNotEqual(session.port, server.port)
        XCTAssertEqual(try call(session.port, "GET", "/own").status, 201)
        XCTAssertEqual(try call(session.port, "GET", "/hi").body, "hi")
        XCTAssertEqual(try call(server.port, "GET", "/own").status, 404)
        let kept = try RawConnection(port: session.port)
        kept.send("GET /hi HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(kept.readResponse()?.status, 200)
        let idle = try RawConnection(port: session.port)  // never sends a byte
        XCTAssertEqual(try call(server.port, "DELETE", "/__admin/sessions/\(session.id)").status, 200)
        XCTAssertTrue(refuses(session.port))
        XCTAssertTrue(kept.readsEndOfStream(), "open connections to the session are closed")
        XCTAssertTrue(idle.readsEndOfStream())
        XCTAssertEqual(try call(server.port, "GET", "/hi").status, 200, "the main port carries on")
    }

    func testCreatingAndDeletingManySessionsLeaksNoDescriptors() throws {
        _ = try call(server.port, "GET", "/hi")  // warm up
        let before = openDescriptors()
        for _ in 0..<100 {
            let session = try createSession()
            XCTAssertEqual(try call(session.port, "GET", "/hi").status, 200)
            XCTAssertEqual(try call(server.port, "DELETE", "/__admin/sessions/\(session.id)").status, 200)
        }
        XCTAssertTrue(
            waitUntil { self.openDescriptors() <= before + 2 },
            "descriptors: \(before) before, \(openDescriptors()) after")
    }

    func testAWaitIsAnsweredOnceByTheRequestThatCompletesIt() throws {
        let session = try createSession()
        let waiter = try RawConnection(port: session.port)
        waiter.send("GET /__admin/requests/wait?count=2&timeoutMs=20000 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(
            waitUntil {
                (try? self.call(session.port, "GET", "/__admin/health").body.contains("\"waiting\":1")) ?? false
            })
        XCTAssertEqual(try call(session.port, "GET", "/hi").status, 200)
        XCTAssertEqual(try call(server.port, "GET", "/hi").status, 200, "the main port's request does not count")
        XCTAssertEqual(try call(session.port, "GET", "/nothing").status, 404)
        let answer = try XCTUnwrap(waiter.readResponse())
        XCTAssertEqual(answer.status, 200)
        XCTAssertTrue(answer.body.contains("\"total\":2"), answer.body)
        XCTAssertTrue(answer.body.contains("\"timedOut\":false"), answer.body)
        // The connection stays usable: the next request on it gets its own answer.
        waiter.send("GET /hi HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(waiter.readResponse()?.body, "hi")
    }

    func testAWaitTimesOutOnTheLoopTimer() throws {
        let waiter = try RawConnection(port: server.port)
        let started = Date()
        waiter.send("GET /__admin/requests/wait?count=1&timeoutMs=200 HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try XCTUnwrap(waiter.readResponse())
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.2)
        XCTAssertTrue(answer.body.contains("\"timedOut\":true"), answer.body)
    }

    func testHungUpWaitsAreFreedAndDeletingASessionDropsItsWaits() throws {
        let session = try createSession()
        for _ in 0..<10 {
            let waiter = try RawConnection(port: session.port)
            waiter.send("GET /__admin/requests/wait?count=1&timeoutMs=60000 HTTP/1.1\r\nHost: x\r\n\r\n")
        }  // each connection closes as it goes out of scope
        XCTAssertTrue(
            waitUntil {
                (try? self.call(session.port, "GET", "/__admin/health").body.contains("\"waiting\":0")) ?? false
            })
        let pending = try RawConnection(port: session.port)
        pending.send("GET /__admin/requests/wait?count=1&timeoutMs=60000 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(
            waitUntil {
                (try? self.call(session.port, "GET", "/__admin/health").body.contains("\"waiting\":1")) ?? false
            })
        XCTAssertEqual(try call(server.port, "DELETE", "/__admin/sessions/\(session.id)").status, 200)
        XCTAssertTrue(pending.readsEndOfStream(), "the wait's connection closes with its session")
    }

    func testAWaitArrivingWhileTheServerDrainsAnswersAtOnce() throws {
        server.stop()
        let stubs =
            #"{"stubs": [{"id": "slow", "request": {"path": "/slow"}, "responses": [{"status": 200, "delayMs": 1500}]}]}"#
        server = try BackgroundServer.start {
            UnderstudyResponder(stubs: try StubLoader.parse(bytes: Array(stubs.utf8), file: "test.json", root: nil))
        }
        let slow = try RawConnection(port: server.port)
        let kept = try RawConnection(port: server.port)
        kept.send("GET /__admin/health HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(kept.readResponse()?.status, 200)
        slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        // Received and waiting out its delay (a delayed request is journaled once answered).
        XCTAssertTrue(
            waitUntil {
                (try? self.call(self.server.port, "GET", "/__admin/health").body.contains("\"pending\":1")) ?? false
            })
        server.requestStop()  // drains: the delayed answer holds the stop for 1.5 s
        XCTAssertTrue(waitUntil { self.refuses(self.server.port) }, "the listener closes as the drain starts")
        let sent = Date()
        kept.send("GET /__admin/requests/wait?count=5&timeoutMs=60000 HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try XCTUnwrap(kept.readResponse())
        XCTAssertLessThan(Date().timeIntervalSince(sent), 1.0, "not held for its timeout")
        XCTAssertTrue(answer.body.contains("\"timedOut\":true"), answer.body)
        XCTAssertEqual(slow.readResponse()?.status, 200, "the delayed answer still finishes")
        server.stop()
        server = nil
    }

    func testStoppingWithLiveSessionsAndPendingWaitsAnswersThemAndFreesEverything() throws {
        let sessions = try (0..<5).map { _ in try createSession() }
        let waiters = try sessions.map { session -> RawConnection in
            let waiter = try RawConnection(port: session.port)
            waiter.send("GET /__admin/requests/wait?count=1&timeoutMs=60000 HTTP/1.1\r\nHost: x\r\n\r\n")
            return waiter
        }
        XCTAssertTrue(
            waitUntil {
                (try? self.call(sessions[4].port, "GET", "/__admin/health").body.contains("\"waiting\":1")) ?? false
            })
        let started = Date()
        server.stop()
        XCTAssertLessThan(
            Date().timeIntervalSince(started), 4, "pending waits do not hold the stop for the grace period")
        for waiter in waiters {
            let answer = waiter.readResponse()
            XCTAssertEqual(answer?.status, 200)
            XCTAssertTrue(answer?.body.contains("\"timedOut\":true") ?? false)
        }
        for session in sessions { XCTAssertTrue(refuses(session.port)) }
        server = nil
    }
}
