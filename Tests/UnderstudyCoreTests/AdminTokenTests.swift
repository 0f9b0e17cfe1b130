import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The optional admin token, checked by the admin routing itself (no sockets): without it the
/// admin API is open; with it every `/__admin` call needs `Authorization: Bearer <token>`, and a
/// refused call gets 401, is not journaled and changes nothing.
final class AdminTokenTests: XCTestCase {
    private let token = "s3cret-token"
    private let stubs =
        #"{"stubs":[{"id":"hello","request":{"path":"/hello"},"responses":[{"status":200},{"status":201}],"afterLast":"exhaust"}]}"#

    private func makeResponder(token: String?) throws -> UnderstudyResponder {
        let set = try StubLoader.parse(bytes: Array(stubs.utf8), file: "test.json", root: nil)
        return UnderstudyResponder(
            stubs: set, configuration: EngineConfiguration(clock: ManualEngineClock(), adminToken: token))
    }

    private func call(
        _ responder: UnderstudyResponder, _ method: String, _ target: String,
        authorization: String? = nil, body: String = ""
    ) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let authorization { headers.append(name: "Authorization", value: authorization) }
        return responder.respond(
            to: HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8)))
    }

    func testWithoutATokenTheAdminAPIIsOpen() throws {
        let responder = try makeResponder(token: nil)
        XCTAssertEqual(call(responder, "GET", "/__admin/health").status, 200)
        XCTAssertEqual(call(responder, "GET", "/__admin/health", authorization: "Bearer anything").status, 200)
    }

    func testTheRightBearerTokenIsAccepted() throws {
        let responder = try makeResponder(token: token)
        XCTAssertEqual(call(responder, "GET", "/__admin/health", authorization: "Bearer \(token)").status, 200)
        XCTAssertEqual(
            call(responder, "GET", "/__admin/health", authorization: "bearer \(token)").status, 200,
            "the scheme is case-insensitive")
        XCTAssertEqual(
            call(responder, "POST", "/__admin/reset", authorization: "Bearer \(token)").text, #"{"reset":true}"#)
    }

    func testEveryAdminPathRefusesAMissingOrWrongToken() throws {
        let responder = try makeResponder(token: token)
        let calls: [(String, String)] = [
            ("GET", "/__admin/health"), ("GET", "/__admin/requests"), ("DELETE", "/__admin/requests"),
            ("POST", "/__admin/requests/count"), ("GET", "/__admin/stubs"), ("POST", "/__admin/stubs"),
            ("DELETE", "/__admin/stubs/hello"), ("GET", "/__admin/scenarios"), ("PUT", "/__admin/scenarios/x"),
            ("POST", "/__admin/reset"), ("POST", "/__admin/reload"), ("GET", "/__admin/nowhere"), ("GET", "/__admin"),
        ]
        let wrong: [String?] = [
            nil, "Bearer", "Bearer ", "Bearer \(token)x", "Bearer \(token.dropLast())",
            "Bearer S3CRET-TOKEN", "Basic \(token)", token, "Bearer  wrong",
        ]
        for (method, path) in calls {
            for authorization in wrong {
                let response = call(responder, method, path, authorization: authorization)
                XCTAssertEqual(response.status, 401, "\(method) \(path) with \(authorization ?? "no header")")
                XCTAssertTrue(response.headers["WWW-Authenticate"]?.hasPrefix("Bearer") ?? false)
                XCTAssertEqual(response.headers["Content-Type"], "application/json")
                XCTAssertNotNil(response.jsonObject["error"] as? String)
            }
        }
    }

    func testARefusedCallChangesNothingAndIsNotJournaled() throws {
        let responder = try makeResponder(token: token)
        XCTAssertEqual(call(responder, "GET", "/hello").status, 200)
        let refused = [
            call(responder, "POST", "/__admin/reset", authorization: "Bearer nope"),
            call(responder, "DELETE", "/__admin/requests"),
            call(responder, "DELETE", "/__admin/stubs/hello"),
            call(responder, "POST", "/__admin/stubs", body: #"{"stubs":[{"id":"new","responses":[{}]}]}"#),
        ]
        XCTAssertEqual(refused.map(\.status), [401, 401, 401, 401])
        XCTAssertEqual(
            responder.engine.journalEntries.count, 1, "admin calls are never journaled; the journal was not cleared")
        XCTAssertEqual(responder.engine.stubs.map(\.id), ["hello"])
        XCTAssertEqual(call(responder, "GET", "/hello").status, 201, "the sequence was not reset")
        // Requests outside the admin API need no token.
        XCTAssertEqual(responder.engine.journalEntries.count, 2)
    }

    func testComparisonIsExact() {
        XCTAssertTrue(AdminAuthorization.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        XCTAssertFalse(AdminAuthorization.constantTimeEqual(Array("abd".utf8), Array("abc".utf8)))
        XCTAssertFalse(AdminAuthorization.constantTimeEqual(Array("ab".utf8), Array("abc".utf8)))
        XCTAssertFalse(AdminAuthorization.constantTimeEqual(Array("abcd".utf8), Array("abc".utf8)))
        XCTAssertFalse(AdminAuthorization.constantTimeEqual([], Array("abc".utf8)))
    }
}
