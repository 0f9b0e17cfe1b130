import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// A host that can open HTTPS listeners (or not), recording what it was asked for.
private final class TLSHost: SessionHosting {
    final class Listener: SessionListener {
        let port: Int
        let url: String
        var closed = false
        init(port: Int, scheme: String) {
            self.port = port
            self.url = "\(scheme)://127.0.0.1:\(port)"
        }
        func close() { closed = true }
    }

    var https: Bool
    var secureFailure: String?
    var plain: [Listener] = []
    var secure: [(mode: String, listener: Listener)] = []

    init(https: Bool) { self.https = https }

    var servesHTTPS: Bool { https }

    func openListener(for responder: any HTTPResponder) -> Result<any SessionListener, SessionHostingError> {
        let listener = Listener(port: 40_000 + plain.count, scheme: "http")
        plain.append(listener)
        return .success(listener)
    }

    func openSecureListener(for responder: any HTTPResponder, mode: String) -> Result<
        any SessionListener, SessionHostingError
    > {
        if let secureFailure { return .failure(SessionHostingError(secureFailure)) }
        let listener = Listener(port: 45_000 + secure.count, scheme: "https")
        secure.append((mode, listener))
        return .success(listener)
    }
}

/// `{"tls": MODE}` in `POST /__admin/sessions`, and the journal's `scheme`.
final class SessionTLSTests: XCTestCase {
    private func registry(_ host: TLSHost) throws -> UnderstudyResponder {
        let main = UnderstudyResponder(
            stubs: try StubLoader.parse(bytes: Array(#"{"stubs": []}"#.utf8), file: "t.json", root: nil))
        let registry = main.enableSessions(SessionLimits(maxSessions: 5, idleTimeoutSeconds: 0))
        registry.host = host
        return main
    }

    private func post(_ main: UnderstudyResponder, _ body: String) -> HTTPResponse {
        main.respond(to: HTTPRequest(method: "POST", target: "/__admin/sessions", body: Array(body.utf8)))
    }

    func testATLSSessionGetsBothPortsAndTheAnswerNamesTheHTTPSOne() throws {
        let host = TLSHost(https: true)
        let main = try registry(host)
        let response = post(main, #"{"tls": "wrong-host"}"#)
        XCTAssertEqual(response.status, 201, response.text)
        let object = response.jsonObject
        XCTAssertEqual(object["httpsUrl"] as? String, "https://127.0.0.1:45000")
        XCTAssertEqual(object["httpsPort"] as? Int, 45_000)
        XCTAssertEqual(object["url"] as? String, "http://127.0.0.1:40000")
        XCTAssertEqual(host.secure.map(\.mode), ["wrong-host"])
        // Without tls: no HTTPS port and no httpsUrl key.
        let plain = post(main, "{}").jsonObject
        XCTAssertNil(plain["httpsUrl"])
        XCTAssertEqual(host.secure.count, 1)
        // Deleting closes both ports.
        let id = try XCTUnwrap(object["id"] as? String)
        XCTAssertEqual(main.respond(to: HTTPRequest(method: "DELETE", target: "/__admin/sessions/\(id)")).status, 200)
        XCTAssertTrue(host.plain[0].closed && host.secure[0].listener.closed)
    }

    func testBadTLSValuesAndAnHTTPSLessDaemonAre400AndOpenNothing() throws {
        let host = TLSHost(https: true)
        let main = try registry(host)
        for body in [#"{"tls": "stale"}"#, #"{"tls": true}"#, #"{"tsl": "valid"}"#] {
            let response = post(main, body)
            XCTAssertEqual(response.status, 400, body)
            XCTAssertTrue(response.text.contains("tls"), response.text)
        }
        XCTAssertTrue(post(main, #"{"tls": "stale"}"#).text.contains("`expired`"))
        XCTAssertTrue(host.plain.isEmpty && host.secure.isEmpty)

        let plainHost = TLSHost(https: false)
        let plainMain = try registry(plainHost)
        let refused = post(plainMain, #"{"tls": "valid"}"#)
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue(refused.text.contains("--https"), refused.text)
        XCTAssertTrue(plainHost.plain.isEmpty, "nothing opened")
    }

    func testAFailingHTTPSPortClosesThePlainOneAndKeepsNothing() throws {
        let host = TLSHost(https: true)
        host.secureFailure = "out of ports"
        let main = try registry(host)
        let response = post(main, #"{"tls": "valid"}"#)
        XCTAssertEqual(response.status, 503)
        XCTAssertTrue(response.text.contains("out of ports"), response.text)
        XCTAssertTrue(host.plain.allSatisfy(\.closed))
        let list = main.respond(to: HTTPRequest(method: "GET", target: "/__admin/sessions")).jsonObject
        XCTAssertEqual((list["sessions"] as? [Any])?.count, 0)
    }

    func testTheJournalMarksTLSRequestsWithSchemeAndLeavesPlainOnesAlone() throws {
        let engine = try makeEngine(#"{"stubs":[]}"#)
        var secure = HTTPRequest(method: "GET", target: "/tls")
        secure.isSecure = true
        _ = engine.handle(secure)
        _ = engine.handle(HTTPRequest(method: "GET", target: "/plain"))
        let lines = engine.journalEntries.map { String(decoding: $0.json, as: UTF8.self) }
        XCTAssertTrue(lines[0].hasPrefix(#"{"seq":1,"scheme":"https","time":"#), lines[0])
        XCTAssertFalse(lines[1].contains("scheme"), lines[1])
        XCTAssertEqual(engine.journalObjects[0]["scheme"] as? String, "https")
    }
}
