import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The dispatcher's own bookkeeping, socket-free (issue 42: what a webhook costs the request that
/// triggers it): the listing keeps the newest 1,000, ids and event ids are the ones drawn when a
/// delivery is made however late they are read, the queue of deliveries waiting in real time gives
/// them back in due order, and which webhooks may render when due. With no transport an attempt
/// fails at once as `no-transport`, which is all these need; `Tests/BlackBox/test_webhook_timing.py`
/// sends real ones.
final class WebhookDispatcherTests: XCTestCase {
    private func engine(_ webhook: String, seed: UInt64 = 42) throws -> StubEngine {
        let set = try StubLoader.parse(
            bytes: Array(
                """
                {"stubs": [{"id": "hooked", "request": {"path": "/hook"},
                  "responses": [{"status": 200, "webhooks": [\(webhook)]}]}]}
                """.utf8), file: "hooks.json", root: nil)
        return StubEngine(stubs: set, configuration: EngineConfiguration(clock: ManualEngineClock(), seed: seed))
    }

    func testTheListingKeepsTheNewestThousandInOrder() throws {
        let engine = try engine(#"{"url": "http://127.0.0.1:9/h", "json": {"n": "{{seq}}"}}"#)
        for _ in 0..<2_345 { XCTAssertEqual(engine.get("/hook").status, 200) }
        let listed = engine.webhookDeliveries
        XCTAssertEqual(listed.count, 1_000)
        XCTAssertEqual(listed.first?.id, "wh_1346")
        XCTAssertEqual(listed.last?.id, "wh_2345")
        XCTAssertEqual(listed.map(\.number), Array(1_346...2_345))
        // Each request and each failed attempt (no transport) is a journal entry: the last request is 4,689.
        XCTAssertEqual(String(decoding: listed.last!.request.body, as: UTF8.self), #"{"n":"4689"}"#)
        XCTAssertEqual(listed.last?.lastOutcome?.error, "no-transport")
    }

    func testEventIDsAreTheSeededDrawsInTheOrderDeliveriesWereMade() throws {
        let engine = try engine(#"{"url": "http://127.0.0.1:9/h"}"#, seed: 7)
        for _ in 0..<3 { _ = engine.get("/hook") }
        // The stream the dispatcher draws from: two draws a delivery, made when it is scheduled.
        var stream = SeededGenerator(seed: 7 ^ 0x7765_6268_6F6F_6B73)
        let expected = (0..<3).map { _ in stream.uuid() }
        let deliveries = engine.webhookDeliveries
        // Read last first: each id is still the one drawn for its delivery.
        XCTAssertEqual(deliveries.reversed().map(\.eventID), expected.reversed())
        XCTAssertEqual(deliveries.map(\.eventID), expected, "the same on every read")
        XCTAssertEqual(Set(expected).count, 3)
    }

    func testOnlyWebhooksWithoutATemplatedURLOrRandomValuesRenderWhenDue() throws {
        func hook(_ json: String) throws -> WebhookSetting {
            let set = try StubLoader.parse(
                bytes: Array(
                    #"{"stubs": [{"request": {"path": "/"}, "responses": [{"webhooks": [\#(json)]}]}]}"#.utf8),
                file: "h.json", root: nil)
            return try XCTUnwrap(set.stubs.first?.responses.first?.webhooks?.first)
        }
        XCTAssertTrue(try hook(#"{"url": "http://127.0.0.1:9/h", "json": {"at": "{{now.iso}}"}}"#).rendersLater)
        XCTAssertTrue(try hook(#"{"json": {"id": "{{response.json.id}}"}}"#).rendersLater, "the world's default URL")
        XCTAssertFalse(
            try hook(#"{"url": "{{request.json.cb}}"}"#).rendersLater, "its target is checked when triggered")
        XCTAssertFalse(try hook(#"{"url": "http://127.0.0.1:9/h", "json": {"id": "{{random.uuid}}"}}"#).rendersLater)
        XCTAssertFalse(try hook(#"{"url": "http://127.0.0.1:9/h", "body": "{{random.int.1.6}}"}"#).rendersLater)
        XCTAssertFalse(
            try hook(#"{"url": "http://127.0.0.1:9/h", "headers": {"X-R": "{{random.hex.8}}"}}"#).rendersLater)
    }

    func testTheWaitingQueueGivesDeliveriesBackInDueOrder() throws {
        let engine = try engine(#"{"url": "http://127.0.0.1:9/h"}"#)
        for _ in 0..<4 { _ = engine.get("/hook") }
        let made = engine.webhookDeliveries
        var queue = DueQueue()
        for (delivery, due) in zip(made, [300, 100, 300, 200] as [UInt64]) { queue.insert(delivery, due: due) }
        XCTAssertEqual(queue.firstDue, 100)
        XCTAssertNil(queue.takeFirst(dueBy: 99))
        var order: [Int] = []
        while let delivery = queue.takeFirst(dueBy: 300) { order.append(delivery.number) }
        // Equal due times in the order they came.
        XCTAssertEqual(order, [2, 4, 1, 3])
        XCTAssertNil(queue.firstDue)
        // Many in order, taken as they fall due: the taken part is cut off as it grows.
        for due in 1...5_000 as ClosedRange<UInt64> { queue.insert(made[Int(due % 4)], due: 1_000 + due) }
        var taken = 0
        while queue.takeFirst(dueBy: 4_000) != nil { taken += 1 }
        XCTAssertEqual(taken, 3_000)
        XCTAssertEqual(queue.count, 2_000)
        XCTAssertEqual(queue.firstDue, 4_001)
    }
}
