import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The responder the transport calls: routing, reload (all-or-nothing) and `POST /__admin/reload`.
final class ResponderTests: XCTestCase {
    func testRoutesAdminAndStubRequests() throws {
        let directory = try makeTemporaryDirectory(self)
        try write(
            #"{"stubs":[{"id":"hello","request":{"path":"/hello"},"responses":[{"body":"hi"}]}]}"#,
            to: directory + "/a.json")
        let responder = try UnderstudyResponder(stubPaths: [directory])
        XCTAssertEqual(responder.stubCount, 1)
        let hello = responder.respond(to: HTTPRequest(method: "GET", target: "/hello"))
        XCTAssertEqual(hello.text, "hi")
        XCTAssertEqual(hello.stubID, "hello")
        let health = responder.respond(to: HTTPRequest(method: "GET", target: "/__admin/health"))
        XCTAssertEqual(health.text, #"{"status":"ok","stubs":1,"requests":1,"pending":0,"waiting":0,"skipped":[]}"#)
        XCTAssertNil(health.stubID)
        XCTAssertEqual(
            responder.respond(to: HTTPRequest(method: "GET", target: "/__adminx")).status, 404,
            "only /__admin/ is admin")
        XCTAssertEqual(responder.engine.journalEntries.count, 2)
    }

    func testInitThrowsEveryError() throws {
        let directory = try makeTemporaryDirectory(self)
        try write(#"{"stubs":[{"responses":[{"status":1}]},{"responses":[]}]}"#, to: directory + "/a.json")
        XCTAssertThrowsError(try UnderstudyResponder(stubPaths: [directory])) { error in
            XCTAssertEqual((error as? StubLoadFailure)?.errors.count, 2)
        }
    }

    func testReloadIsAllOrNothing() throws {
        let directory = try makeTemporaryDirectory(self)
        let file = directory + "/a.json"
        try write(
            #"{"stubs":[{"id":"v1","request":{"path":"/v"},"responses":[{"status":201},{"status":202}]}]}"#, to: file)
        let responder = try UnderstudyResponder(stubPaths: [directory])
        XCTAssertEqual(responder.respond(to: HTTPRequest(method: "GET", target: "/v")).status, 201)

        try write(
            #"{"stubs":[{"id":"v2","request":{"path":"/v"},"responses":[{"status":299}]},{"id":"broken","responses":[{"staus":1}]}]}"#,
            to: file)
        guard case .failure(let failure) = responder.reload() else { return XCTFail("a broken file must not load") }
        XCTAssertEqual(failure.errors.map(\.suggestion), ["status"])
        XCTAssertEqual(
            responder.respond(to: HTTPRequest(method: "GET", target: "/v")).status, 202,
            "old stubs and their state kept")

        let viaAdmin = responder.respond(to: HTTPRequest(method: "POST", target: "/__admin/reload"))
        XCTAssertEqual(viaAdmin.status, 400)
        XCTAssertEqual((viaAdmin.jsonObject["errors"] as? [Any])?.count, 1)

        try write(
            #"{"stubs":[{"id":"v2","request":{"path":"/v"},"responses":[{"status":299}]},{"id":"extra","responses":[{}]}]}"#,
            to: file)
        XCTAssertEqual(
            responder.respond(to: HTTPRequest(method: "POST", target: "/__admin/reload")).text, #"{"stubs":2}"#)
        XCTAssertEqual(responder.stubCount, 2)
        XCTAssertEqual(responder.respond(to: HTTPRequest(method: "GET", target: "/v")).status, 299)
        XCTAssertEqual(responder.engine.journalEntries.count, 3, "reload keeps the journal")
    }

    func testReloadWithoutPathsFailsAndKeepsStubs() throws {
        let responder = UnderstudyResponder(
            stubs: try StubLoader.parse(
                bytes: Array(#"{"stubs":[{"responses":[{}]}]}"#.utf8), file: "x.json", root: nil))
        guard case .failure(let failure) = responder.reload() else { return XCTFail("nothing to reload") }
        XCTAssertTrue(failure.description.contains("nothing to reload"))
        XCTAssertEqual(responder.stubCount, 1)
    }
}
