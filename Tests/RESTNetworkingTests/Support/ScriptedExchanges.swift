import RESTNetworking
import XCTest

/// A canned upstream for unit tests of the operators: each subscription takes the next scripted
/// outcome (the last one repeats). No URL loading is involved at all.
final class ScriptedExchanges: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [Result<HTTPResponseOutput, any Error>]
    private var subscriptionCount = 0

    init(_ outcomes: [Result<HTTPResponseOutput, any Error>]) {
        self.outcomes = outcomes
    }

    /// How many times the upstream was subscribed to (attempts made).
    var attempts: Int {
        lock.lock()
        defer { lock.unlock() }
        return subscriptionCount
    }

    func next() -> Result<HTTPResponseOutput, any Error> {
        lock.lock()
        defer { lock.unlock() }
        subscriptionCount += 1
        return outcomes.count > 1 ? outcomes.removeFirst() : outcomes[0]
    }

    func publisher(method: HTTPMethod? = .get) -> HTTPRequestPublisher {
        HTTPRequestPublisher(
            method: method,
            Deferred { [self] () -> AnyPublisher<HTTPResponseOutput, any Error> in
                switch next() {
                case let .success(output): Just(output).setFailureType(to: (any Error).self).eraseToAnyPublisher()
                case let .failure(error): Fail(error: error).eraseToAnyPublisher()
                }
            })
    }

    func call(method: HTTPMethod? = .get) -> RESTCall {
        RESTCall(method: method) { [self] in try next().get() }
    }

    static func response(_ status: Int, headers: [String: String] = [:], body: String = "") -> Result<
        HTTPResponseOutput, any Error
    > {
        let url = URL(string: "http://127.0.0.1/unit")!
        let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
        return .success((data: Data(body.utf8), response: response))
    }
}

/// Polls `condition` until it holds or `timeout` passes; the way tests wait for another task
/// to reach a point (a retry delay being scheduled) without sleeping a fixed time.
func waitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else {
            throw PublisherTestError.timedOut
        }
        try await Task.sleep(nanoseconds: 1_000_000)
    }
}
