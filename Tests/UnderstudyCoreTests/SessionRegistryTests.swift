import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// A transport stand-in that hands out port numbers without sockets: the registry and the
/// session engines are what these tests exercise (the real transport is in UnderstudyServerTests
/// and Tests/BlackBox/test_sessions.py).
private final class TableHost: SessionHosting {
    final class Listener: SessionListener {
        let port: Int
        var responder: (any HTTPResponder)?
        var closed = false
        init(port: Int, responder: any HTTPResponder) {
            self.port = port
            self.responder = responder
        }
        var url: String { "http://127.0.0.1:\(port)" }
        func close() {
            closed = true
            responder = nil
        }
    }

    var listeners: [Listener] = []
    var failure: String?

    func openListener(for responder: any HTTPResponder) -> Result<any SessionListener, SessionHostingError> {
        if let failure { return .failure(SessionHostingError(failure)) }
        let listener = Listener(port: 50_000 + listeners.count, responder: responder)
        listeners.append(listener)
        return .success(listener)
    }

    /// Sends `request` to the session listening on `port`, as the transport would.
    func send(_ port: Int, _ method: String, _ target: String, body: String = "") -> HTTPResponse {
        guard let responder = listeners.first(where: { $0.port == port && !$0.closed })?.responder else {
            XCTFail("nothing listens on \(port)")
            return HTTPResponse(status: 0)
        }
        guard
            case .now(let response) = responder.answer(
                HTTPRequest(method: method, target: target, body: Array(body.utf8)))
        else {
            XCTFail("deferred")
            return HTTPResponse(status: 0)
        }
        return response
    }
}

final class SessionRegistryTests: XCTestCase {
    private let fileStubs = """
        {"stubs": [{"id": "seq", "request": {"path": "/seq"}, "responses": [{"status": 200}, {"status": 201}]}]}
        """
    private let sessionStubs = """
        {"name": "mine", "stubs": [
          {"id": "auth", "scenario": "auth", "setState": "In", "request": {"path": "/login"}, "responses": [{"status": 204}]},
          {"id": "me", "scenario": "auth", "whenState": "In", "request": {"path": "/me"}, "responses": [{"status": 200}]},
          {"id": "seq", "request": {"path": "/seq"}, "responses": [{"status": 299}]}
        ]}
        """

    private var clock: ManualEngineClock!
    private var sink: CollectingSink!
    private var main: UnderstudyResponder!
    private var host: TableHost!
    private var registry: SessionRegistry!

    override func setUpWithError() throws {
        clock = ManualEngineClock()
        sink = CollectingSink()
        let directory = try makeTemporaryDirectory(self)
        try write(fileStubs, to: directory + "/stubs.json")
        main = try UnderstudyResponder(
            stubPaths: [directory],
            configuration: EngineConfiguration(journalSink: sink, clock: clock))
        host = TableHost()
        registry = main.enableSessions(SessionLimits(maxSessions: 3, idleTimeoutSeconds: 10))
        registry.host = host
    }

    private func post(_ target: String, _ body: String = "", method: String = "POST") -> HTTPResponse {
        main.respond(to: HTTPRequest(method: method, target: target, body: Array(body.utf8)))
    }

    private func create(_ body: String = "") throws -> (id: String, port: Int) {
        let response = post("/__admin/sessions", body)
        XCTAssertEqual(response.status, 201, response.text)
        let object = response.jsonObject
        return (try XCTUnwrap(object["id"] as? String), try XCTUnwrap(object["port"] as? Int))
    }

    func testASessionStartsFromTheFileStubsInFreshStatePlusItsOwn() throws {
        XCTAssertEqual(main.respond(to: HTTPRequest(method: "GET", target: "/seq")).status, 200, "main moves on")
        let plain = try create()
        let own = try create(sessionStubs)
        XCTAssertEqual(host.send(plain.port, "GET", "/seq").status, 200, "fresh state, not main's position")
        XCTAssertEqual(host.send(plain.port, "GET", "/seq").status, 201)
        XCTAssertEqual(
            host.send(own.port, "GET", "/seq").status, 299, "a posted stub with a file stub's id replaces it")
        XCTAssertEqual(host.send(own.port, "GET", "/me").status, 404)
        XCTAssertEqual(host.send(own.port, "GET", "/login").status, 204)
        XCTAssertEqual(host.send(own.port, "GET", "/me").status, 200)
        XCTAssertEqual(host.send(plain.port, "GET", "/me").status, 404, "stubs of one session are not in another")

        let listing = post("/__admin/sessions", method: "GET").jsonObject["sessions"] as? [[String: Any]] ?? []
        XCTAssertEqual(listing.map { $0["id"] as? String }, [plain.id, own.id])
        XCTAssertEqual(listing.map { $0["requests"] as? Int }, [3, 4])
        XCTAssertEqual(listing.map { $0["name"] as? String }, [nil, "mine"])
        XCTAssertEqual(listing.first?["url"] as? String, "http://127.0.0.1:\(plain.port)")
    }

    func testJournalLinesCarryTheSessionAndSeqCountsPerSession() throws {
        let a = try create(), b = try create()
        _ = host.send(a.port, "GET", "/seq")
        _ = host.send(b.port, "GET", "/seq")
        _ = host.send(a.port, "GET", "/nope")
        _ = main.respond(to: HTTPRequest(method: "GET", target: "/seq"))
        let lines = sink.lines.map { jsonObject(Array($0.dropLast())) }
        XCTAssertEqual(lines.map { $0["session"] as? String }, [a.id, b.id, a.id, nil])
        XCTAssertEqual(lines.map { $0["seq"] as? Int }, [1, 1, 2, 1])
        XCTAssertFalse(
            String(decoding: sink.lines[3], as: UTF8.self).contains("\"session\""), "absent on the main port")
    }

    func testBadBodiesAndTheCapChangeNothing() throws {
        for body in ["{", "[1]", #"{"nam": "x"}"#, #"{"name": 1}"#, #"{"stubs": [{"responses": [{"staus": 1}]}]}"#] {
            XCTAssertEqual(post("/__admin/sessions", body).status, 400, body)
        }
        XCTAssertTrue(host.listeners.isEmpty, "no port opened for a bad body")
        _ = try create()
        _ = try create()
        _ = try create()
        let refused = post("/__admin/sessions")
        XCTAssertEqual(refused.status, 503)
        XCTAssertTrue(refused.text.contains("--max-sessions"), refused.text)
        XCTAssertEqual(host.listeners.count, 3)
        XCTAssertEqual(registry.count, 3)
    }

    func testAFailingTransportAnswers503AndKeepsNothing() {
        host.failure = "out of ports"
        let response = post("/__admin/sessions")
        XCTAssertEqual(response.status, 503)
        XCTAssertTrue(response.text.contains("out of ports"), response.text)
        XCTAssertEqual(registry.count, 0)
    }

    func testDeleteClosesTheListenerAndUnknownIdsAre404() throws {
        let a = try create()
        XCTAssertEqual(post("/__admin/sessions/\(a.id)", method: "DELETE").jsonObject["deleted"] as? String, a.id)
        XCTAssertTrue(host.listeners[0].closed)
        XCTAssertNil(host.listeners[0].responder, "the listener let go of the session")
        XCTAssertEqual(post("/__admin/sessions/\(a.id)", method: "DELETE").status, 404)
        XCTAssertEqual(post("/__admin/sessions/\(a.id)", method: "GET").status, 404)
        XCTAssertEqual(post("/__admin/sessions/x/y", method: "GET").status, 404)
        XCTAssertEqual(post("/__admin/sessions", method: "PATCH").status, 405)
    }

    func testTheIdleTimeoutReclaimsOnlyIdleSessions() throws {
        var logged: [String] = []
        registry.log = { logged.append($0) }
        let idle = try create(), busy = try create()
        clock.advance(seconds: 6)
        _ = host.send(busy.port, "GET", "/seq")
        XCTAssertEqual(registry.reclaimIdle(), [])
        clock.advance(seconds: 5)
        XCTAssertEqual(registry.reclaimIdle(), [idle.id])
        XCTAssertEqual(registry.ids, [busy.id])
        XCTAssertTrue(host.listeners[0].closed)
        XCTAssertEqual(logged.count, 1)
        XCTAssertTrue(logged[0].contains("session \(idle.id) reclaimed"), logged[0])
    }

    func testASessionsAdminAPIHasNoSessionsEndpointAndItsResetIsItsOwn() throws {
        let a = try create(), b = try create()
        _ = host.send(a.port, "GET", "/seq")
        _ = host.send(b.port, "GET", "/seq")
        let refused = host.send(a.port, "GET", "/__admin/sessions")
        XCTAssertEqual(refused.status, 404)
        XCTAssertTrue(refused.text.contains("main port"), refused.text)
        XCTAssertEqual(host.send(a.port, "POST", "/__admin/reset").status, 200)
        XCTAssertEqual(host.send(a.port, "GET", "/__admin/requests").jsonObject["total"] as? Int, 0)
        XCTAssertEqual(host.send(b.port, "GET", "/__admin/requests").jsonObject["total"] as? Int, 1)
        XCTAssertEqual(host.send(b.port, "GET", "/seq").status, 201, "b's sequence did not restart")
    }

    func testTheSessionHeaderRoutesAMainPortRequest() throws {
        let a = try create(sessionStubs)
        var headers = HTTPHeaders()
        headers.append(name: "understudy-session", value: a.id)
        guard case .now(let routed) = main.answer(HTTPRequest(method: "GET", target: "/seq", headers: headers)) else {
            return XCTFail("deferred")
        }
        XCTAssertEqual(routed.status, 299)
        headers.replaceOrAdd(name: "Understudy-Session", value: "gone")
        guard case .now(let unknown) = main.answer(HTTPRequest(method: "GET", target: "/seq", headers: headers)) else {
            return XCTFail("deferred")
        }
        XCTAssertEqual(unknown.status, 404)
        XCTAssertEqual(main.engine.journalEntries.map(\.status), [404], "journaled on the main port")
    }

    func testReloadKeepsLiveSessionsAndSeedsNewOnes() throws {
        let before = try create()
        // Rewrite the main's stub file: the reload reads the paths the responder was made with.
        let path = try XCTUnwrap(main.engine.stubs.first?.file)
        try write(#"{"stubs": [{"id": "seq", "request": {"path": "/seq"}, "responses": [{"status": 202}]}]}"#, to: path)
        XCTAssertEqual(post("/__admin/reload").status, 200)
        XCTAssertEqual(main.respond(to: HTTPRequest(method: "GET", target: "/seq")).status, 202)
        XCTAssertEqual(host.send(before.port, "GET", "/seq").status, 200, "a live session keeps its stubs")
        let after = try create()
        XCTAssertEqual(host.send(after.port, "GET", "/seq").status, 202)
    }
}
