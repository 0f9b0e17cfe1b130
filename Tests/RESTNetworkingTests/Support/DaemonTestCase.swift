import RESTNetworking
import UnderstudyTesting
import XCTest

/// The API under test, pointed at the daemon, sending through this run's transport
/// (`TestTransport`). Each test gets its own ephemeral session so no pooled connection outlives
/// the daemon it was opened to.
struct StubbedAPI: RESTAPIProtocol {
    let baseURL: URL
    let urlSession: URLSession
    let pacer: RequestPacer
    let transport: any RESTTransport

    /// - Parameters:
    ///   - pacer: paces every request of this API (nil: not paced).
    ///   - connectionsPerHost: the transport's own cap (URLSession's is 6 by default on Linux,
    ///     AsyncHTTPClient's 8); raise it for tests that need more requests on the wire at once.
    init(baseURL: URL, pacer: RequestPacer? = nil, connectionsPerHost: Int? = nil) {
        self.baseURL = baseURL
        self.pacer = pacer ?? .unpaced
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        if let connectionsPerHost { configuration.httpMaximumConnectionsPerHost = connectionsPerHost }
        self.urlSession = URLSession(configuration: configuration)
        self.transport = TestTransport.make(session: urlSession, connectionsPerHost: connectionsPerHost)
    }
}

/// Gives every test its own session of the process-wide daemon (launched once for the whole
/// run, or `UNDERSTUDY_URL` when set), with the stubs of `stubs/restnetworking/`: fresh
/// sequences, scenarios, rate limits and a journal with `seq` from 1, at the cost of a few admin
/// calls (one per stub file) instead of a process. When the test ends, unmatched requests fail it and the session is
/// deleted.
class DaemonTestCase: XCTestCase {
    /// `stubs/restnetworking`, found from this file's location in the repository.
    static let stubDirectory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("stubs/restnetworking").path

    private(set) var understudy: Understudy!
    private(set) var api: StubbedAPI!

    override func setUp() async throws {
        try await super.setUp()
        let understudy = try await understudySession(stubs: [Self.stubDirectory])
        self.understudy = understudy
        api = StubbedAPI(baseURL: understudy.baseURL)
    }

    override func tearDown() async throws {
        understudy = nil
        api = nil
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
