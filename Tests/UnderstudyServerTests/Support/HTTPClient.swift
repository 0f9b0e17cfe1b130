import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as URLSession delivered it.
struct Fetched: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
    }
}

/// URLSession requests against a test server.
struct HTTPClient: Sendable {
    let base: String
    let session: URLSession

    init(base: String, session: URLSession = URLSession(configuration: .ephemeral)) {
        self.base = base
        self.session = session
    }

    func fetch(
        _ path: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:],
        timeout: TimeInterval = 10
    ) async throws -> Fetched {
        var request = URLRequest(url: URL(string: base + path)!, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key] = value }
        }
        return Fetched(status: http.statusCode, headers: fields, body: data)
    }

    func json(_ path: String, method: String = "GET", body: String? = nil) async throws -> [String: Any] {
        try await fetch(path, method: method, body: body.map { Data($0.utf8) }).json()
    }

    /// The URLError a request ends in, or nil if it succeeded.
    func failure(_ path: String) async -> URLError? {
        do {
            _ = try await fetch(path, timeout: 5)
            return nil
        } catch let error as URLError {
            return error
        } catch {
            return URLError(.unknown)
        }
    }
}
