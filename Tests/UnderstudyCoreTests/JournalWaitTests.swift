import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// `GET /__admin/requests/wait` (the engine's side of the long poll), `DeferredReply`'s
/// exactly-once rules, and `POST /__admin/requests/find`.
final class JournalWaitTests: XCTestCase {
    private let stubs = #"{"stubs": [{"id": "a", "request": {"path": "/a"}, "responses": [{"status": 200}]}]}"#

    private func wait(_ engine: StubEngine, _ query: String) -> HTTPAnswer {
        engine.adminAnswer(HTTPRequest(method: "GET", target: "/__admin/requests/wait?" + query)) { .success(0) }
    }

    /// Attaches to a deferred reply and collects what it delivers.
    private func collect(_ reply: DeferredReply) -> () -> [HTTPResponse] {
        final class Box { var responses: [HTTPResponse] = [] }
        let box = Box()
        reply.attach { box.responses.append($0) }
        return { box.responses }
    }

    func testAWaitAnswersWhenEnoughMatchingEntriesAreJournaled() throws {
        let engine = try makeEngine(stubs)
        _ = engine.get("/a")
        guard case .later(let reply) = wait(engine, "count=3&path=/a&timeoutMs=1000") else {
            return XCTFail("answered at once")
        }
        XCTAssertEqual(reply.timeoutSeconds, 1)
        let delivered = collect(reply)
        _ = engine.get("/other")
        _ = engine.get("/a")
        XCTAssertTrue(delivered().isEmpty, "two of three")
        XCTAssertEqual(engine.recorder.waiters.count, 1)
        _ = engine.get("/a")
        XCTAssertEqual(delivered().count, 1)
        let body = try XCTUnwrap(delivered().first).jsonObject
        XCTAssertEqual(body["timedOut"] as? Bool, false)
        XCTAssertEqual(body["total"] as? Int, 3)
        XCTAssertEqual((body["requests"] as? [[String: Any]])?.map { $0["seq"] as? Int }, [1, 3, 4])
        XCTAssertTrue(engine.recorder.waiters.isEmpty)
        _ = engine.get("/a")
        reply.expire()
        reply.cancel()
        XCTAssertEqual(delivered().count, 1, "exactly one answer")
    }

    func testAlreadySatisfiedOrZeroTimeoutAnswersAtOnce() throws {
        let engine = try makeEngine(stubs)
        _ = engine.get("/a")
        guard case .now(let done) = wait(engine, "count=1") else { return XCTFail("deferred") }
        XCTAssertEqual(done.jsonObject["timedOut"] as? Bool, false)
        guard case .now(let empty) = wait(engine, "count=2&timeoutMs=0") else { return XCTFail("deferred") }
        XCTAssertEqual(empty.jsonObject["timedOut"] as? Bool, true)
        XCTAssertEqual(empty.jsonObject["total"] as? Int, 1)
        XCTAssertTrue(engine.recorder.waiters.isEmpty)
    }

    func testExpiryAnswersWithWhatThereIsAndCancelForgetsTheWaiter() throws {
        let engine = try makeEngine(stubs)
        guard case .later(let timedOut) = wait(engine, "count=2") else { return XCTFail("answered at once") }
        guard case .later(let abandoned) = wait(engine, "count=2") else { return XCTFail("answered at once") }
        let delivered = collect(timedOut)
        let neverDelivered = collect(abandoned)
        _ = engine.get("/a")
        timedOut.expire()
        XCTAssertEqual(delivered().first?.jsonObject["timedOut"] as? Bool, true)
        XCTAssertEqual(delivered().first?.jsonObject["total"] as? Int, 1)
        abandoned.cancel()
        XCTAssertTrue(engine.recorder.waiters.isEmpty, "both waiters are gone")
        _ = engine.get("/a")
        XCTAssertEqual(delivered().count, 1)
        XCTAssertTrue(neverDelivered().isEmpty)
    }

    func testAnAnswerBeforeTheTransportAttachesIsKept() {
        let reply = DeferredReply(timeoutSeconds: nil, onTimeout: { HTTPResponse(status: 504) }, onCancel: {})
        XCTAssertTrue(reply.answer(HTTPResponse(status: 201)))
        XCTAssertFalse(reply.answer(HTTPResponse(status: 202)))
        var got: [Int] = []
        reply.attach { got.append($0.status) }
        reply.expire()
        XCTAssertEqual(got, [201])
    }

    func testResetAndClearRecountPendingWaiters() throws {
        let engine = try makeEngine(stubs)
        _ = engine.get("/a")
        guard case .later(let reply) = wait(engine, "count=2") else { return XCTFail("answered at once") }
        let delivered = collect(reply)
        XCTAssertEqual(engine.adminCall("DELETE", "/__admin/requests").status, 200)
        _ = engine.get("/a")
        XCTAssertTrue(delivered().isEmpty, "the cleared entry no longer counts")
        _ = engine.get("/a")
        XCTAssertEqual(delivered().first?.jsonObject["total"] as? Int, 2)
    }

    func testBadWaitParametersAre400() throws {
        let engine = try makeEngine(stubs)
        for query in ["count=x", "count=-2", "timeoutMs=300001", "timeout=5", "since=-1"] {
            guard case .now(let response) = wait(engine, query) else { return XCTFail("deferred: \(query)") }
            XCTAssertEqual(response.status, 400, query)
        }
        guard
            case .now(let wrongMethod) = engine.adminAnswer(
                HTTPRequest(method: "POST", target: "/__admin/requests/wait"), reload: { .success(0) })
        else {
            return XCTFail("deferred")
        }
        XCTAssertEqual(wrongMethod.status, 405)
        XCTAssertTrue(engine.recorder.waiters.isEmpty)
        XCTAssertEqual(engine.adminCall("GET", "/__admin/health").jsonObject["waiting"] as? Int, 0)
    }

    func testFindTakesAStubRequestMatcher() throws {
        let engine = try makeEngine(stubs)
        _ = engine.send("POST", "/orders?dry=1", headers: ["X-Trace": "t-1"], body: #"{"sku":"A-1","n":1}"#)
        _ = engine.send("POST", "/orders", body: #"{"sku":"B-2"}"#)
        let found = engine.adminCall(
            "POST", "/__admin/requests/find",
            body: #"{"request": {"method": "POST", "query": {"dry": "1"}, "body": {"jsonSubset": {"sku": "A-1"}}}}"#)
        XCTAssertEqual(found.status, 200)
        XCTAssertEqual((found.jsonObject["requests"] as? [[String: Any]])?.map { $0["seq"] as? Int }, [1])
        let bare = engine.adminCall(
            "POST", "/__admin/requests/find", body: #"{"headers": {"X-Trace": {"absent": true}}}"#)
        XCTAssertEqual((bare.jsonObject["requests"] as? [[String: Any]])?.map { $0["seq"] as? Int }, [2])
        XCTAssertEqual(engine.adminCall("POST", "/__admin/requests/find", body: #"{"pth": "/x"}"#).status, 400)
        XCTAssertEqual(engine.adminCall("GET", "/__admin/requests/find").status, 405)
    }
}
