import UnderstudyHTTP

/// A stub held by reference for the request path: reading a field through the box does not copy
/// the whole `Stub` (and retain each of its arrays and strings) as reading it out of an array does.
final class StubBox {
    let stub: Stub
    /// `stub.request`, where matching reads it in place: calling `matches` on
    /// `box.stub.request` copied the pattern out of the box first (retaining, then releasing,
    /// each of its fields: about 340 instructions a candidate).
    private let pattern: UnsafeMutablePointer<RequestPattern>
    /// Whether the pattern is only an exact path (and perhaps a method): ``StubIndex`` finds such
    /// a stub by its path and checks its method, the very comparisons `matches` would make, so
    /// being its candidate is matching it.
    let decidedByIndex: Bool
    /// For each response that is the same every time (no template, pacing, random delay,
    /// `Retry-After`, proxy or webhook), the answer ready-made: serving it hands out a copy, one retain.
    let staticAnswers: [HTTPResponse?]
    /// Whether the stub may answer a request before its sequence does (`tokenExpiresIn`,
    /// `idempotency`, an early retry it refuses) or judges its retries: the engine asks
    /// `guardedAnswer` first.
    let guarded: Bool
    /// Whether the stub has `idempotency` (its own or a session's): `guardedAnswer` asks this
    /// rather than `stub.idempotency != nil`, which copied the rule out (retaining its header name).
    let idempotent: Bool
    /// Its responses' webhooks, made ready for the world (``StubWebhooks``); nil for a stub without any.
    let webhooks: StubWebhooks?
    /// What the stub does with an early retry, when it can ask for a wait at all (a `rateLimit`,
    /// a `retryAfter`, a `Retry-After` or `X-RateLimit-Reset` header): then every request to it
    /// gets a retry verdict. `nil` for a stub that never asks for a wait.
    let earlyRetries: EarlyRetries?

    /// Boxes `stub`; a `POST` or `PATCH` stub without `idempotency` of its own takes `idempotency`
    /// (a session's, ``EngineConfiguration/idempotency``), and a stub without `earlyRetries` takes
    /// `earlyRetries` (a session's). (`webhookDefaults`: the world's, which its webhooks' plans take.)
    convenience init(
        _ stub: Stub, idempotency: IdempotencyRule? = nil, earlyRetries: EarlyRetries? = nil,
        webhookDefaults: WebhookDefaults? = nil
    ) {
        // A copy only for a stub that takes the rule: a `var` copy of every stub cost each one
        // ~250 instructions more at start-up (it retains every field, then releases them).
        if let idempotency, stub.idempotency == nil, stub.request.method == "POST" || stub.request.method == "PATCH" {
            var adopting = stub
            adopting.idempotency = idempotency
            self.init(boxing: adopting, earlyRetries: earlyRetries, webhookDefaults: webhookDefaults)
        } else {
            self.init(boxing: stub, earlyRetries: earlyRetries, webhookDefaults: webhookDefaults)
        }
    }

    private init(boxing stub: Stub, earlyRetries sessionEarlyRetries: EarlyRetries?, webhookDefaults: WebhookDefaults?)
    {
        self.stub = stub
        let asksForWaits =
            stub.rateLimit != nil
            || stub.responses.contains { response in
                response.retryAfter != nil || response.headers.contains("Retry-After")
                    || response.headers.contains("X-RateLimit-Reset")
            }
        earlyRetries = asksForWaits ? (stub.earlyRetries ?? sessionEarlyRetries ?? .observe) : nil
        idempotent = stub.idempotency != nil
        guarded = stub.tokenExpiresIn != nil || idempotent || earlyRetries != nil
        webhooks = StubWebhooks.of(stub, defaults: webhookDefaults)
        staticAnswers = stub.responses.map { $0.webhooks == nil ? Self.readyAnswer($0, stubID: stub.id) : nil }
        let request = stub.request
        if case .exact? = request.path, request.query.isEmpty, request.headers.isEmpty, request.cookies.isEmpty,
            request.body == nil
        {
            decidedByIndex = true
        } else {
            decidedByIndex = false
        }
        pattern = .allocate(capacity: 1)
        pattern.initialize(to: stub.request)
    }

    /// The answer to `response` ready-made, when nothing in it varies from request to request but
    /// its webhooks (no template, pacing, random delay, `Retry-After` or proxy); nil otherwise.
    static func readyAnswer(_ response: StubResponse, stubID: String) -> HTTPResponse? {
        guard response.template == nil, response.streaming == nil, response.delayDistribution == nil,
            response.retryAfter == nil, response.proxy == nil
        else { return nil }
        var answer = HTTPResponse(
            status: response.status, headers: response.headers, body: response.body,
            delayMs: response.delayMs, fault: response.fault, stubID: stubID,
            reason: response.statusMessage, faultParameters: response.faultParameters)
        answer.compression = response.compression
        return answer
    }

    deinit {
        pattern.deinitialize(count: 1)
        pattern.deallocate()
    }

    /// Whether the stub's request pattern matches.
    func matches(_ context: MatchContext) -> Bool {
        pattern.pointee.matches(context)
    }
}

@available(*, unavailable)
extension StubBox: Sendable {}
