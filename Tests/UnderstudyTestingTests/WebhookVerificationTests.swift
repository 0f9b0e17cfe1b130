import Foundation
import Testing
import UnderstudyTesting

/// `verifyWebhook` against the real daemon: each world's webhooks go to a stub of the same world
/// (`{{server.url}}/…`), so the daemon is its own receiver. It passes on deliveries that match by
/// URL, event type, attempts and state, and fails listing the deliveries it saw.
@Suite(
    "UnderstudyTesting: verifyWebhook",
    .understudy(
        // The receiver: a 500 first, then 204 (a sequence), so a delivery needs its one retry.
        Stub.post("/wv/receiver").id("wv-receiver").respond(.status(500), .status(204)),
        Stub.post("/wv/github").id("wv-github").respond(.status(200)),
        Stub.post("/wv/pay").id("wv-pay").respond(
            .status(200).webhook(
                "{{server.url}}/wv/receiver", json: ["type": "payment_intent.succeeded", "id": "evt_1"],
                signing: .stripe(secret: "whsec_kit"), retry: .delays([1]))),
        Stub.post("/wv/push").id("wv-push").respond(
            .status(200).webhook(
                "{{server.url}}/wv/github", headers: ["X-GitHub-Event": "push"], json: ["ref": "main"],
                signing: .github(secret: "kit"))),
        Stub.post("/wv/slack").id("wv-slack").respond(
            .status(200).webhook(
                "{{server.url}}/wv/github", json: ["type": "event_callback", "event": ["type": "app_mention"]])),
        Stub.post("/wv/lost").id("wv-lost").respond(.status(200).webhook("http://127.0.0.1:1/wv/lost"))
    ))
struct WebhookVerificationTests {
    var understudy: Understudy { Understudy.current! }

    @Test func passesByPathEventAttemptsAndFinalState() async throws {
        #expect(try await HTTP.send("POST", "/wv/pay", to: understudy, body: "{}").status == 200)
        let found = await understudy.verifyWebhook(
            to: "/wv/receiver", event: "payment_intent.succeeded", attempts: 2, state: .delivered)
        let delivery = try #require(found.first)
        #expect(delivery.stub == "wv-pay")
        #expect(delivery.lastAttempt?.status == 204)
        #expect(delivery.request.url.hasSuffix("/wv/receiver"))
        // The whole URL names it too, and so does the stub.
        await understudy.verifyWebhook(to: delivery.request.url, stub: "wv-pay")
        await understudy.verifyWebhook(.never, event: "payment_intent.failed", timeout: 0)
    }

    @Test func readsTheEventTypeFromGitHubsHeaderAndSlacksEnvelope() async throws {
        #expect(try await HTTP.send("POST", "/wv/push", to: understudy, body: "{}").status == 200)
        #expect(try await HTTP.send("POST", "/wv/slack", to: understudy, body: "{}").status == 200)
        let push = await understudy.verifyWebhook(event: "push", state: .delivered)
        #expect(push.first?.eventType == "push")
        let mention = await understudy.verifyWebhook(event: "app_mention", state: .delivered)
        #expect(mention.first?.stub == "wv-slack")
    }

    @Test func aFailedDeliveryIsVerifiedAsFailed() async throws {
        #expect(try await HTTP.send("POST", "/wv/lost", to: understudy, body: "{}").status == 200)
        let failed = await understudy.verifyWebhook(to: "http://127.0.0.1:1/wv/lost", attempts: 1, state: .failed)
        #expect(failed.first?.lastAttempt?.error == "connection-refused")
    }

    @Test func failureListsTheDeliveriesSeen() async throws {
        #expect(try await HTTP.send("POST", "/wv/pay", to: understudy, body: "{}").status == 200)
        await understudy.verifyWebhook(state: .delivered)
        await expectKitFailure(
            containing: [
                "expected exactly 1 webhook delivery event invoice.paid, found 0 within 300.0 ms",
                "deliveries seen:", "event=payment_intent.succeeded", "stub=wv-pay", "delivered",
            ]
        ) {
            await understudy.verifyWebhook(event: "invoice.paid", timeout: 0.3)
        }
        await expectKitFailure(containing: ["expected exactly 3 webhook deliveries to /wv/receiver, found 1"]) {
            await understudy.verifyWebhook(.exactly(3), to: "/wv/receiver", timeout: 0.1)
        }
    }
}

/// `Understudy.session(webhookURL:webhookSecret:)`: a stub whose webhook names no receiver and no
/// secret sends to the session's default target, signed with its default secret. The receiver is
/// another session of the same daemon.
@Test func sessionDefaultsGiveAStubWithoutURLOrSecretItsReceiverAndSecret() async throws {
    let receiver = try await Understudy.session(name: "wv-defaults-receiver")
    let target = receiver.baseURL.absoluteString + "/wv/received"
    let sender = try await Understudy.session(
        name: "wv-defaults-sender", webhookURL: target, webhookSecret: "kit-default")
    do {
        try await receiver.install([Stub.post("/wv/received").respond(.status(204))])
        try await sender.install([
            Stub.post("/wv/send").id("wv-send").respond(
                .status(200).webhook(json: ["type": "order.created"], signing: .sessionSecret(.github)))
        ])
        #expect(try await HTTP.send("POST", "/wv/send", to: sender, body: "{}").status == 200)
        let found = await sender.verifyWebhook(to: target, event: "order.created", state: .delivered)
        let signature = try #require(found.first?.request.headers["X-Hub-Signature-256"])
        #expect(signature.hasPrefix("sha256="))
        // What the receiver got is what was signed: one request, with that signature.
        await receiver.verify(.once, .post("/wv/received").header("X-Hub-Signature-256", .equals(signature)))
    } catch {
        Issue.record(error)
    }
    await sender.stop()
    await receiver.stop()
}
