import Foundation
import RESTNetworking
#if AsyncHTTPClient  // the package trait (Package.swift); scripts/test turns it on
import AsyncHTTPClient
import RESTNetworkingAsyncHTTPClient
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which transport the integration suite's `StubbedAPI` sends through: URLSession unless
/// `RESTNETWORKING_TEST_TRANSPORT=asynchttpclient`. `scripts/test` runs the suite once per
/// transport, so every operator is proven on both against the daemon with the same tests.
enum TestTransport: String {
    case urlSession = "urlsession"
    case asyncHTTPClient = "asynchttpclient"

    /// The environment variable that chooses.
    static let variable = "RESTNETWORKING_TEST_TRANSPORT"

    /// This run's choice.
    static let current: TestTransport = {
        let value = ProcessInfo.processInfo.environment[variable]?.lowercased() ?? ""
        guard !value.isEmpty else { return .urlSession }
        guard let chosen = TestTransport(rawValue: value) else {
            fatalError("\(variable)=\(value): expected \(urlSession.rawValue) or \(asyncHTTPClient.rawValue)")
        }
        return chosen
    }()

    /// A transport of this run's kind over `session` (URLSession) or over an AsyncHTTPClient client
    /// allowing `connectionsPerHost` connections to one host.
    static func make(session: URLSession, connectionsPerHost: Int?) -> any RESTTransport {
        switch current {
        case .urlSession: return URLSessionTransport(session: session)
        case .asyncHTTPClient:
            #if AsyncHTTPClient
            return AsyncHTTPClientTransport(client: client(connectionsPerHost: connectionsPerHost ?? 8))
            #else
            fatalError("\(variable)=\(current.rawValue): built without the AsyncHTTPClient trait")
            #endif
        }
    }

    #if AsyncHTTPClient

    /// One client per connection limit for the whole run (never shut down, so none is torn down
    /// under a request still in flight). Each test's session has its own port, so no pooled
    /// connection is shared between tests.
    static func client(connectionsPerHost: Int = 8) -> HTTPClient {
        clients.withLock { clients in
            if let client = clients[connectionsPerHost] { return client }
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerHost
            configuration.timeout.connect = .seconds(10)
            // AsyncHTTPClient retries a failed connection establishment (a refused certificate
            // included) with backoff until the request's deadline, then reports the last error: each
            // TLS refusal cost the suite 10 s of waiting. A refusal is final here, and every failure
            // the suite provokes is, so the first one is reported at once.
            configuration.connectionPool.retryConnectionEstablishment = false
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[connectionsPerHost] = client
            return client
        }
    }

    private static let clients = Locked<[Int: HTTPClient]>([:])
    #endif
}
