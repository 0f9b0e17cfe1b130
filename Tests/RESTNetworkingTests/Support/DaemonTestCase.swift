import RESTNetworking
import UnderstudyTesting
import XCTest

/// The API under test, pointed at the daemon. Each test gets its own ephemeral session so no
/// pooled connection outlives the daemon it was opened to.
struct StubbedAPI: RESTAPIProtocol {
    let baseURL: URL
    let urlSession: URLSession
    let pacer: RequestPacer

    /// - Parameters:
    ///   - pacer: paces every request of this API (nil: not paced).
    ///   - connectionsPerHost: URLSession's own cap (6 by default on Linux); raise it for tests
    ///     that need more requests on the wire at once.
    init(baseURL: URL, pacer: RequestPacer? = nil, connectionsPerHost: Int? = nil) {
        self.baseURL = baseURL
        self.pacer = pacer ?? .unpaced
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        if let connectionsPerHost { configuration.httpMaximumConnectionsPerHost = connectionsPerHost }
        self.urlSession = URLSession(configuration: configuration)
    }
}

/// Starts a fresh daemon with `stubs/restnetworking/` for every test (or, when `UNDERSTUDY_URL`
/// is set, uses that daemon — which must serve `stubs/restnetworking/` — and resets it), and fails
/// the test if any request went unmatched.
class DaemonTestCase: XCTestCase {
    /// `stubs/restnetworking`, found from this file's location in the repository.
    static let stubDirectory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("stubs/restnetworking").path

    private(set) var understudy: Understudy!
    private(set) var api: StubbedAPI!

    override func setUp() async throws {
        try await super.setUp()
        let understudy = try await Understudy.attachOrLaunch(stubs: [Self.stubDirectory])
        if !understudy.isLaunched {
            try await understudy.admin.reset()
        }
        self.understudy = understudy
        api = StubbedAPI(baseURL: understudy.baseURL)
    }

    override func tearDown() async throws {
        if let understudy {
            await understudy.assertNoUnmatchedRequests()
            if understudy.isLaunched {
                let status = await understudy.stop()
                XCTAssertEqual(status, 0, "the daemon should stop cleanly on SIGTERM")
            }
        }
        understudy = nil
        try await super.tearDown()
    }

    /// The journal entries for `path`, in arrival order.
    func journal(_ path: String, method: String? = nil) async throws -> [RecordedRequest] {
        try await understudy.admin.requests(path: path, method: method)
    }

    /// Milliseconds between consecutive requests, on the daemon's monotonic clock.
    func gapsMs(_ requests: [RecordedRequest]) -> [Double] {
        zip(requests.dropFirst(), requests).map { $0.elapsedMs - $1.elapsedMs }
    }
}

extension UnderstudyAdmin {
    /// Polls the journal until `path` has at least `count` entries; throws after `timeout`.
    func waitForRequests(path: String, count: Int, timeout: TimeInterval = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try await requests(path: path).count < count {
            guard Date() < deadline else { throw PublisherTestError.timedOut }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }
}
