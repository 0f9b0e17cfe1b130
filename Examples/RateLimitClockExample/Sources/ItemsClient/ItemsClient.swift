import Foundation
import RESTNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of an API that allows one request per 30-second window and answers the rest with
/// `429` and `Retry-After`: it waits what the server asks (up to a minute) and tries once more.
/// The wait runs on `scheduler`, so a test can give it a virtual one.
public struct ItemsClient: RESTAPIProtocol {
    public let baseURL: URL
    public let urlSession: URLSession
    let scheduler: any RetryScheduler

    /// A client of the API at `baseURL`, waiting out rate limits on `scheduler` (real time by default).
    public init(baseURL: URL, scheduler: any RetryScheduler = .system) {
        self.baseURL = baseURL
        self.urlSession = URLSession(configuration: .ephemeral)
        self.scheduler = scheduler
    }

    /// `GET /v1/items`; `onRetry` hears of each wait before it starts.
    public func items(onRetry: RetryObserver? = nil) async throws -> [String] {
        let (data, _) = try await call(.get, endpoint: "v1/items")
            .respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 60, scheduler: scheduler, onRetry: onRetry)
            .response()
        return try JSONDecoder().decode([String].self, from: data)
    }
}
