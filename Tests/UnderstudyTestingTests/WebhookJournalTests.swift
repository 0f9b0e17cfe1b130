import Foundation
import Testing
import UnderstudyTesting

/// A webhook attempt is an entry of the journal the kit reads: marked outbound, with the request as
/// sent and, for one that got no answer, outcome `failed` and why.
@Suite("UnderstudyTesting: webhook attempts in the journal", .understudy())
struct WebhookJournalTests {
    @Test func aFailedAttemptDecodesWithItsDeliveryAndWhy() async throws {
        let understudy = try #require(Understudy.current)
        try await understudy.install([
            Stub.post("/wh/go").id("wh-go").respond(
                .status(202).webhook(
                    "http://127.0.0.1:1/wh/closed", headers: ["X-Event": "gone"], json: ["id": "{{request.path}}"]))
        ])
        let (response, _) = try await Exchange.send("POST", "/wh/go", to: understudy, body: "{}")
        #expect(response.statusCode == 202)
        let attempts = try await understudy.admin.waitForRequests(path: "/wh/closed", count: 1)
        let attempt = try #require(attempts.first)
        #expect(attempt.outcome == .failed)
        #expect(attempt.status == nil)
        #expect(attempt.stub == "wh-go")
        #expect(attempt.outbound?.attempt == 1)
        #expect(attempt.outbound?.error == "connection-refused")
        #expect(attempt.outbound?.url == "http://127.0.0.1:1/wh/closed")
        #expect(attempt.header("X-Event") == "gone")
        #expect(attempt.body == #"{"id":"/wh/go"}"#)
    }

    @Test func deliveriesAreListedAndAWaitSeesTheirState() async throws {
        let understudy = try #require(Understudy.current)
        // The daemon is its own receiver: the webhook goes to a stub of the same world.
        try await understudy.install([
            Stub.post("/wh/receiver").id("wh-receiver").respond(.status(204)),
            Stub.post("/wh/pay").id("wh-pay").respond(
                .status(200).webhook(
                    "{{server.url}}/wh/receiver", json: ["type": "paid"],
                    signing: .github(secret: "s"))),
            Stub.post("/wh/lost").id("wh-lost").respond(
                .status(200).webhook("http://127.0.0.1:1/wh/lost", retry: .delays([1]))),
        ])
        _ = try await Exchange.send("POST", "/wh/pay", to: understudy, body: "{}")
        let delivered = try await understudy.admin.waitForWebhook(.delivered) { $0.stub == "wh-pay" }
        #expect(delivered.attempts == 1)
        #expect(delivered.lastAttempt?.status == 204)
        #expect(delivered.request.headers["X-Hub-Signature-256"]?.hasPrefix("sha256=") == true)
        #expect(delivered.request.body == #"{"type":"paid"}"#)
        _ = try await Exchange.send("POST", "/wh/lost", to: understudy, body: "{}")
        let failed = try await understudy.admin.waitForWebhook(.failed) { $0.stub == "wh-lost" }
        #expect(failed.attempts == 2, "the first attempt and its one retry")
        #expect(failed.lastAttempt?.error == "connection-refused")
        let listed = try await understudy.admin.webhookDeliveries()
        #expect(Set(listed.map(\.id)).isSuperset(of: [delivered.id, failed.id]))
        await #expect(throws: UnderstudyError.self) {
            try await understudy.admin.waitForWebhook(.retrying, timeout: 0.2) { $0.stub == "wh-pay" }
        }
    }
}
