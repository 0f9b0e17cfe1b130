import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyTesting

/// One request with the whole response (status, headers, body) for tests that check response
/// fields; faults surface as thrown URLSession errors.
enum Exchange {
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        // Tests set `Cookie` themselves (cookie matchers); no stored cookie may replace it.
        configuration.httpShouldSetCookies = false
        return URLSession(configuration: configuration)
    }()

    static func send(
        _ method: String, _ path: String, to understudy: Understudy, body: String? = nil,
        data: Data? = nil, headers: [String: String] = [:]
    ) async throws -> (response: HTTPURLResponse, body: Data) {
        var request = URLRequest(url: URL(string: understudy.baseURL.absoluteString + path)!)
        request.httpMethod = method
        request.httpBody = data ?? body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (received, response) = try await session.data(for: request)
        return (response as! HTTPURLResponse, received)
    }

    /// A daemon's (or session's) admin answer as raw JSON.
    static func adminJSON(_ path: String, on understudy: Understudy) async throws -> JSONValue {
        let (_, data) = try await send("GET", path, to: understudy)
        return try JSONDecoder().decode(JSONValue.self, from: data)
    }
}
