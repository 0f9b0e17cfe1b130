import RESTNetworking
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Idempotency keys in the retry operators, both forms, over a transport that answers from a
/// script and keeps every request it was handed (the daemon-backed proof is
/// `IdempotentCreateIntegrationTests`).
final class IdempotencyKeyTests: XCTestCase {
    /// Answers each request with the next scripted status and keeps the requests.
    final class ScriptedTransport: RESTTransport, @unchecked Sendable {  // state guarded by `lock`
        private let lock = NSLock()
        private var statuses: [(Int, String)]
        private(set) var sent: [URLRequest] = []

        init(_ statuses: [(Int, String)]) {
            self.statuses = statuses
        }

        var requests: [URLRequest] {
            lock.lock()
            defer { lock.unlock() }
            return sent
        }

        func send(
            _ request: URLRequest, completion: @escaping @Sendable (Result<HTTPResponseOutput, any Error>) -> Void
        ) -> RetryCancellation {
            lock.lock()
            sent.append(request)
            let (status, body) = statuses.count > 1 ? statuses.removeFirst() : statuses[0]
            lock.unlock()
            let response = HTTPURLResponse(
                url: request.url!, statusCode: status, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/problem+json"])!
            completion(.success((data: Data(body.utf8), response: response)))
            return {}
        }
    }

    struct API: RESTAPIProtocol {
        let baseURL = URL(string: "http://127.0.0.1:9/v1")!
        let transport: any RESTTransport
    }

    private let fast = RetryPolicy(maxAttempts: 4, baseDelay: 0, maxDelay: 0)

    private func keys(_ transport: ScriptedTransport) -> [String?] {
        transport.requests.map { $0.value(forHTTPHeaderField: "Idempotency-Key") }
    }

    func testAsyncPOSTSendsOneKeyOnEveryAttemptAndANewOneForTheNextCall() async throws {
        let transport = ScriptedTransport([(503, ""), (503, ""), (201, "{}")])
        let api = API(transport: transport)
        let call = api.call(.post, endpoint: "charges", body: Data("amount=1".utf8)).retryOnFailure(policy: fast)
        _ = try await call.response()
        let first = keys(transport)
        XCTAssertEqual(first.count, 3)
        XCTAssertNotNil(first[0])
        XCTAssertEqual(Set(first).count, 1, "\(first)")

        _ = try await call.response()
        let second = keys(transport).dropFirst(3)
        XCTAssertEqual(second.count, 1)
        XCTAssertNotEqual(second.first, first.first, "a new logical call gets a new key")
    }

    func testCombinePOSTSendsOneKeyOnEveryAttemptOfASubscription() async throws {
        let transport = ScriptedTransport([(502, ""), (201, "{}")])
        let api = API(transport: transport)
        let publisher = api.post(endpoint: "charges", body: Data("{}".utf8)).retryOnFailure(policy: fast)
        _ = try await publisher.awaitResult().get()
        _ = try await publisher.awaitResult().get()
        let sent = keys(transport)
        XCTAssertEqual(sent.count, 3)
        XCTAssertEqual(sent[0], sent[1])
        XCTAssertNotNil(sent[0])
        XCTAssertNotEqual(sent[2], sent[0], "each subscription is its own logical call")
    }

    func testTypedEndpointWithAFormBodyIsKeyedThroughNestedOperators() async throws {
        let transport = ScriptedTransport([(503, ""), (200, #"{"id":"ch_1"}"#)])
        let api = API(transport: transport)
        struct Charge: Decodable, Sendable { let id: String }
        let endpoint = Endpoint<Charge>(.post, "charges", form: ["amount": 2000, "metadata": ["order": "7"]])
        let charge = try await api.call(endpoint)
            .retryOnUnauthorized(refreshingWith: AccessTokenRefresher(accessToken: "t") { "t2" })
            .retryOnFailure(policy: fast)
            .respondToRateLimiting()
            .value()
        XCTAssertEqual(charge.id, "ch_1")
        let sent = transport.requests
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(Set(keys(transport)).count, 1)
        XCTAssertNotNil(keys(transport)[0])
        XCTAssertEqual(
            sent.map { $0.httpBody.map { String(decoding: $0, as: UTF8.self) } },
            [
                "amount=2000&metadata[order]=7", "amount=2000&metadata[order]=7",
            ])
        XCTAssertEqual(sent[0].value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded")
    }

    func testTheCallersOwnKeyIsKeptAndMakesThePOSTRetryable() async throws {
        let transport = ScriptedTransport([(503, ""), (201, "{}")])
        let api = API(transport: transport)
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: 0, idempotencyKeys: .callerSupplied)
        let output = try await api.call(.post, endpoint: "charges", body: Data("{}".utf8)) {
            $0.addingValue("mine-1", forHTTPHeaderField: "Idempotency-Key")
        }
        .retryOnFailure(policy: policy)
        .response()
        XCTAssertEqual(output.response.statusCode, 201)
        XCTAssertEqual(keys(transport), ["mine-1", "mine-1"])
    }

    func testGETAndPUTGetNoKeyAndTheHeaderNameIsConfigurable() async throws {
        let transport = ScriptedTransport([(200, "")])
        let api = API(transport: transport)
        _ = try await api.call(.get, endpoint: "charges").retryOnFailure(policy: fast).response()
        _ = try await api.call(.put, endpoint: "charges/1").retryOnFailure(policy: fast).response()
        XCTAssertEqual(keys(transport), [nil, nil])
        let custom = RetryPolicy(idempotencyKeys: IdempotencyKeys(header: "X-Request-Key"))
        _ = try await api.call(.patch, endpoint: "charges/1").retryOnFailure(policy: custom).response()
        XCTAssertNotNil(transport.requests.last?.value(forHTTPHeaderField: "X-Request-Key"))
        XCTAssertNil(transport.requests.last?.value(forHTTPHeaderField: "Idempotency-Key"))
    }

    func testA409InProgressIsRetriedAndA422MismatchIsATypedErrorNeverRetried() async throws {
        let inProgress = ScriptedTransport([(409, #"{"detail":"in progress"}"#), (201, "{}")])
        let output = try await API(transport: inProgress).call(.post, endpoint: "charges", body: Data("{}".utf8))
            .retryOnFailure(policy: fast).response()
        XCTAssertEqual(output.response.statusCode, 201)
        XCTAssertEqual(inProgress.requests.count, 2)

        let mismatch = ScriptedTransport([
            (422, #"{"title":"Idempotency key reused","detail":"Idempotency-Key was first used with another body"}"#),
            (201, "{}"),
        ])
        let result = await API(transport: mismatch).post(endpoint: "charges", body: Data("{}".utf8))
            .retryOnFailure(policy: fast).awaitResult()
        let key = try XCTUnwrap(keys(mismatch).first ?? nil)
        XCTAssertEqual(
            result.failure as? IdempotencyKeyMismatch,
            IdempotencyKeyMismatch(key: key, detail: "Idempotency-Key was first used with another body"))
        XCTAssertEqual(mismatch.requests.count, 1)

        let validation = ScriptedTransport([(422, #"{"detail":"amount must be positive"}"#)])
        let plain = await API(transport: validation).post(endpoint: "charges", body: Data("{}".utf8))
            .retryOnFailure(policy: fast).awaitResult()
        XCTAssertEqual(plain.failure as? HTTPClientError, .unprocessableContent, "a 422 not about the key stays one")
    }

    func testA409WithoutAKeyIsNotRetried() {
        let conflict = HTTPClientError(statusCode: 409)!
        XCTAssertEqual(
            fast.decision(
                for: RetryContext(retriesSoFar: 0, error: conflict, elapsed: 0, method: .put, randomUnit: 0)),
            .fail)
        XCTAssertEqual(
            fast.decision(
                for: RetryContext(
                    retriesSoFar: 0, error: conflict, elapsed: 0, method: .post, randomUnit: 0, idempotencyKey: "k")),
            .retry(after: 0))
        XCTAssertEqual(
            fast.decision(
                for: RetryContext(
                    retriesSoFar: 0, error: HTTPServerError.badGateway, elapsed: 0, method: .post, randomUnit: 0)),
            .fail, "an unkeyed POST is still not retried")
    }

    func testFormFieldsNestLikeStripeAndEncodeEverythingButBrackets() {
        let fields: FormFields = [
            "amount": 2000, "currency": "eur", "capture": false,
            "metadata": ["order": "7", "note": "a b&c"], "expand": ["customer", "invoice"],
            "items": [["price": "p_1", "quantity": 2]],
        ]
        XCTAssertEqual(
            fields.encoded,
            "amount=2000&currency=eur&capture=false&metadata[order]=7&metadata[note]=a%20b%26c"
                + "&expand[0]=customer&expand[1]=invoice&items[0][price]=p_1&items[0][quantity]=2")
        let odd: FormFields = ["odd name": "x=y"]
        XCTAssertEqual(odd.encoded, "odd%20name=x%3Dy")
    }
}

/// The example of docs/restnetworking.md ("Idempotency keys"), compiled and run.
final class IdempotencyKeyDocExampleTests: XCTestCase {
    struct Charge: Decodable, Sendable { let id: String }

    func testTheDocExampleSendsOneKeyOnEveryAttempt() async throws {
        let transport = IdempotencyKeyTests.ScriptedTransport([(503, ""), (201, #"{"id":"ch_1"}"#)])
        let api = IdempotencyKeyTests.API(transport: transport)
        let create = Endpoint<Charge>(
            .post, "v1/charges", form: ["amount": 2000, "currency": "eur", "metadata": ["order": "7"]])
        // amount=2000&currency=eur&metadata[order]=7, one Idempotency-Key on every attempt
        let charge = try await api.call(create)
            .retryOnFailure(policy: RetryPolicy(maxAttempts: 3))
            .value()
        XCTAssertEqual(charge.id, "ch_1")
        let keys = transport.requests.map { $0.value(forHTTPHeaderField: "Idempotency-Key") }
        XCTAssertEqual(keys.count, 2)
        XCTAssertNotNil(keys[0])
        XCTAssertEqual(keys[0], keys[1])
    }
}
