import Foundation
import PaymentsWebhooks
import Testing
import UnderstudyTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The receiver is tested against deliveries the daemon really sent: after `POST /v1/payment_intents`
// the stub's webhook goes to `/hooks/stripe` on the same session (a stub that answers 500 once, then
// 200, as a flaky endpoint would), signed as Stripe signs, and retried with the same event. Each
// attempt is in the journal exactly as sent, signature included; the test hands those bytes to the
// receiver, as its HTTP endpoint would. The wrong-on-purpose deliveries (a stale timestamp, another
// secret, a body changed after signing) must be refused by the same code.

let secret = "whsec_example_endpoint_secret"

/// `POST PATH` answers 200 and sends a `payment_intent.succeeded` event for `order` to the receiver
/// stub, signed with `signing`, retried once after a failure.
func payment(_ path: String, signing: WebhookSigning) -> Stub {
    Stub.post(path).respond(
        .status(200).json(["status": "succeeded"]).webhook(
            "{{server.url}}/hooks/stripe",
            json: [
                "id": "evt_{{request.json.order}}", "type": "payment_intent.succeeded",
                "data": ["object": ["id": "pi_{{request.json.order}}"]],
            ],
            signing: signing, retry: .delays([1])))
}

let stubs: [any StubSource] = [
    // The receiver's endpoint as the daemon sees it: 500 the first time, 200 after.
    Stub.post("/hooks/stripe").respond(.status(500), .status(200)),
    payment("/v1/payment_intents", signing: .stripe(secret: secret)),
    payment("/v1/stale", signing: WebhookSigning.stripe(secret: secret).mistake(.staleTimestamp)),
    payment("/v1/wrong-secret", signing: WebhookSigning.stripe(secret: secret).mistake(.wrongSecret)),
    payment("/v1/tampered", signing: WebhookSigning.stripe(secret: secret).mistake(.tamperedBody)),
]

/// The attempts of the session's webhooks to `/hooks/stripe`, as sent, once `count` are journaled.
func deliveries(_ understudy: Understudy, count: Int) async throws -> [RecordedRequest] {
    let entries = try await understudy.admin.waitForRequests(path: "/hooks/stripe", count: count * 2)
    return entries.filter { $0.outbound != nil }
}

@Test(.understudy(stubs: stubs))
func aRetriedEventIsProcessedOnce() async throws {
    let understudy = try #require(Understudy.current)
    let receiver = PaymentWebhookReceiver(secret: secret)
    let (status, _) = try await send("/v1/payment_intents", order: "1001", to: understudy)
    #expect(status == 200)

    // The first attempt got the 500, the retry the 200: two deliveries of one event.
    await understudy.verifyWebhook(
        to: "/hooks/stripe", event: "payment_intent.succeeded", attempts: 2, state: .delivered)
    let attempts = try await deliveries(understudy, count: 2)
    #expect(attempts.map { $0.outbound?.attempt } == [1, 2])
    let outcomes = attempts.map { receiver.receive(body: $0.bodyData, signature: $0.header("Stripe-Signature")) }
    #expect(outcomes == [.processed(eventID: "evt_1001"), .duplicate(eventID: "evt_1001")])
    #expect(outcomes.map(\.status) == [200, 200])
    #expect(receiver.paidPaymentIntents == ["pi_1001"])
}

@Test(
    .understudy(stubs: stubs),
    arguments: [
        ("/v1/stale", PaymentWebhookReceiver.Rejection.staleTimestamp),
        ("/v1/wrong-secret", .badSignature),
        ("/v1/tampered", .badSignature),
    ])
func aForgedOrReplayedDeliveryIsRefused(path: String, why: PaymentWebhookReceiver.Rejection) async throws {
    let understudy = try #require(Understudy.current)
    let receiver = PaymentWebhookReceiver(secret: secret)
    _ = try await send(path, order: "2002", to: understudy)
    let attempt = try #require(try await deliveries(understudy, count: 1).first)
    let outcome = receiver.receive(body: attempt.bodyData, signature: attempt.header("Stripe-Signature"))
    #expect(outcome == .rejected(why))
    #expect(outcome.status == 400)
    #expect(receiver.paidPaymentIntents.isEmpty)
    // And a delivery without a signature at all is refused before its body is read.
    #expect(receiver.receive(body: attempt.bodyData, signature: nil) == .rejected(.missingSignature))
}

/// `POST path` with `{"order": order}` to the session; the status and body.
func send(_ path: String, order: String, to understudy: Understudy) async throws -> (Int, Data) {
    var request = URLRequest(url: understudy.baseURL.appendingPathComponent(path))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(#"{"order": "\#(order)"}"#.utf8)
    let (body, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
}
