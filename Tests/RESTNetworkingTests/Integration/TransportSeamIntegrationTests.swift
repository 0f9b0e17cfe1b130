import Foundation
import RESTNetworking
import UnderstudyTesting
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The public transport seam: an API that returns its own `RESTTransport` has every request —
/// Combine and async, each retry, paced or not — go through it, and the operators above behave
/// as on the default. The transport here is URLSession underneath, counting what it carries.
final class TransportSeamIntegrationTests: DaemonTestCase {
    /// Counts requests on their way to a real URLSession.
    final class CountingTransport: RESTTransport, @unchecked Sendable {  // `sent` is guarded by `lock`
        let inner = URLSessionTransport(session: URLSession(configuration: .ephemeral))
        private let lock = NSLock()
        private var sent: [String] = []

        var paths: [String] { lock.withLock { sent } }

        func send(
            _ request: URLRequest,
            completion: @escaping @Sendable (Result<HTTPResponseOutput, any Error>) -> Void
        ) -> RetryCancellation {
            lock.withLock { sent.append(request.url?.path ?? "") }
            return inner.send(request, completion: completion)
        }
    }

    struct SeamAPI: RESTAPIProtocol {
        let baseURL: URL
        let transport: any RESTTransport
        let pacer: RequestPacer
    }

    func testEveryRequestAndRetryGoesThroughTheAPIsTransport() async throws {
        let counting = CountingTransport()
        let api = SeamAPI(baseURL: understudy.baseURL, transport: counting, pacer: RequestPacer())
        let combined = try await api.get(endpoint: "rest/echo").catchHTTPErrors().awaitResult().get()
        XCTAssertEqual(combined.response.statusCode, 200)
        let awaited = try await api.call(.get, endpoint: "rest/echo").response()
        XCTAssertEqual(awaited.response.statusCode, 200)
        // A 503 retried: both attempts through the seam.
        let policy = RetryPolicy(maxAttempts: 2, baseDelay: 0.05, retriesNonIdempotentRequests: true)
        let retried = try await api.call(.post, endpoint: "rest/flaky/submit", body: Data("{}".utf8))
            .retryOnFailure(policy: policy).response()
        XCTAssertEqual(retried.response.statusCode, 201)
        XCTAssertEqual(counting.paths, ["/rest/echo", "/rest/echo", "/rest/flaky/submit", "/rest/flaky/submit"])
        let echoes = try await journal("/rest/echo")
        XCTAssertEqual(echoes.count, 2)
        let submits = try await journal("/rest/flaky/submit")
        XCTAssertEqual(submits.map(\.status), [503, 201])
    }
}
