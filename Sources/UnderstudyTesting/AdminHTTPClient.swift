import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyLoopbackHTTP

/// The admin API's transport: one HTTP/1.1 exchange (`Connection: close`) over a plain blocking
/// socket (`LoopbackHTTPClient`), on a thread of its own.
///
/// Why not URLSession: on Linux, FoundationNetworking can deadlock inside `URLSession.data(for:)`
/// when a task is cancelled, and a task group cancelling its siblings has frozen every URLSession
/// call of a test process that way. Admin calls take no part in Swift cancellation at all: a
/// cancelled caller still waits for its call to end (each is bounded by its timeout), and no
/// URLSession — the client under test's, or a cancelled one — can hold them up.
enum AdminHTTPClient {
    /// What came back.
    struct Response: Sendable {
        var status: Int
        var body: Data
    }

    /// Sends one request and returns the response; `timeout` bounds the whole exchange (connecting,
    /// sending and receiving). An `https` URL (an attached daemon behind TLS) goes through
    /// URLSession, shielded from cancellation in a detached task.
    static func send(
        method: String, url: URL, headers: [(String, String)], body: Data?,
        timeout: TimeInterval
    ) async throws -> Response {
        if url.scheme == "https" {
            return try await sendOverURLSession(
                method: method, url: url, headers: headers, body: body, timeout: timeout)
        }
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Result {
                        try exchange(method: method, url: url, headers: headers, body: body, timeout: timeout)
                    })
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// A URL the exchange cannot reach (no host).
    struct TransportError: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: One exchange on the calling thread

    /// One exchange through `LoopbackHTTPClient` (UnderstudyLoopbackHTTP, which the CLI's
    /// `record --session` uses too): connect, send and read within `timeout`, any framing.
    static func exchange(
        method: String, url: URL, headers: [(String, String)], body: Data?,
        timeout: TimeInterval
    ) throws -> Response {
        guard var host = url.host, !host.isEmpty else { throw TransportError(description: "no host in \(url)") }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var target = url.path.isEmpty ? "/" : url.path
        if let components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            if let query = components.percentEncodedQuery { target += "?" + query }
        }
        let client = LoopbackHTTPClient(host: host, port: url.port ?? 80, timeout: timeout)
        let response = try client.exchange(
            method: method, target: target, headers: headers.map { (name: $0.0, value: $0.1) },
            body: body.map { [UInt8]($0) })
        return Response(status: response.status, body: Data(response.body))
    }

    // MARK: https

    private static let tlsSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }()

    private static func sendOverURLSession(
        method: String, url: URL, headers: [(String, String)], body: Data?,
        timeout: TimeInterval
    ) async throws -> Response {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = timeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let session = tlsSession
        // Detached: the caller's cancellation never reaches the URLSession task.
        return try await Task.detached {
            let (data, response) = try await session.data(for: request)
            return Response(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
        }.value
    }
}
