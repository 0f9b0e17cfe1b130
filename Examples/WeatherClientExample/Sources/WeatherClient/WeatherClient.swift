import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A small weather API client, as an app team would write it: async/await over URLSession,
/// bearer tokens refreshed on 401, `Retry-After` honoured on 503 and 429, `Link` pagination.
public final class WeatherClient: Sendable {
    public let baseURL: URL
    private let session: URLSession
    private let tokens: TokenStore
    /// Retries of a 429/503 answer before giving up.
    public let maxRetries: Int
    /// The longest `Retry-After` this client waits out.
    public let maxRetryDelay: TimeInterval

    public init(
        baseURL: URL, refreshToken: String, accessToken: String? = nil, timeout: TimeInterval = 10,
        maxRetries: Int = 2, maxRetryDelay: TimeInterval = 5
    ) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        self.session = URLSession(configuration: configuration)
        self.tokens = TokenStore(refreshToken: refreshToken, accessToken: accessToken)
        self.maxRetries = maxRetries
        self.maxRetryDelay = maxRetryDelay
    }

    /// `GET /v1/forecast?city=…`.
    public func forecast(city: String) async throws -> Forecast {
        var components = URLComponents(
            url: baseURL.appendingPathComponent("v1/forecast"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "city", value: city)]
        let (data, _) = try await send(URLRequest(url: components.url!))
        return try JSONDecoder().decode(Forecast.self, from: data)
    }

    /// `POST /v1/observations` with the observation as JSON.
    public func report(_ observation: Observation) async throws {
        var request = URLRequest(url: baseURL.appendingPathComponent("v1/observations"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(observation)
        _ = try await send(request)
    }

    /// Every station, following `Link: <…>; rel="next"` from page to page.
    public func stations() async throws -> [Station] {
        var all: [Station] = []
        var next: URL? = baseURL.appendingPathComponent("v1/stations")
        while let url = next {
            let (data, response) = try await send(URLRequest(url: url))
            all += try JSONDecoder().decode([Station].self, from: data)
            next = Self.nextLink(response.value(forHTTPHeaderField: "Link"))
        }
        return all
    }

    // MARK: One exchange: auth, retries, errors

    private func send(_ original: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var refreshed = false
        var retries = 0
        while true {
            var request = original
            if let token = await tokens.accessToken() {
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            }
            let data: Data
            let response: HTTPURLResponse
            do {
                let (body, answer) = try await session.data(for: request)
                (data, response) = (body, answer as! HTTPURLResponse)
            } catch let error as URLError where error.code == .timedOut {
                throw WeatherError.timedOut
            } catch {
                throw WeatherError.transport(error)
            }
            switch response.statusCode {
            case 200..<300:
                return (data, response)
            case 401 where !refreshed:
                refreshed = true
                try await refreshToken()
            case 429, 503:
                guard retries < maxRetries, let delay = Self.retryAfter(response), delay <= maxRetryDelay else {
                    throw WeatherError.unavailable(status: response.statusCode)
                }
                retries += 1
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            default:
                throw WeatherError.status(response.statusCode)
            }
        }
    }

    private func refreshToken() async throws {
        var request = URLRequest(url: baseURL.appendingPathComponent("oauth/token"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // A `let` of a Sendable type: read without hopping onto the actor.
        request.httpBody = try JSONEncoder().encode(["refresh_token": tokens.refreshToken])
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw WeatherError.unauthorized }
        struct Answer: Decodable { var access_token: String }
        await tokens.set(try JSONDecoder().decode(Answer.self, from: data).access_token)
    }

    /// `Retry-After` as seconds (delta-seconds, fractional accepted) or an HTTP date.
    static func retryAfter(_ response: HTTPURLResponse) -> TimeInterval? {
        guard let value = response.value(forHTTPHeaderField: "Retry-After") else { return nil }
        if let seconds = TimeInterval(value) { return max(seconds, 0) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max($0.timeIntervalSinceNow, 0) }
    }

    /// The `rel="next"` target of a `Link` header.
    static func nextLink(_ header: String?) -> URL? {
        guard let header else { return nil }
        for part in header.split(separator: ",") where part.contains("rel=\"next\"") {
            guard let start = part.firstIndex(of: "<"), let end = part.firstIndex(of: ">") else { continue }
            return URL(string: String(part[part.index(after: start)..<end]))
        }
        return nil
    }
}

/// The client's tokens, refreshed at most one at a time.
actor TokenStore {
    let refreshToken: String
    private var access: String?
    init(refreshToken: String, accessToken: String?) {
        self.refreshToken = refreshToken
        self.access = accessToken
    }
    func accessToken() -> String? { access }
    func set(_ token: String) { access = token }
}
