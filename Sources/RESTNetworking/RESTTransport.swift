import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a ``RESTAPIProtocol``'s requests go through: one request out, its HTTP answer (or an
/// error) back. Every operator — retry, rate limiting, refresh, pacing, typed endpoints — sits
/// above it, so they behave the same whichever transport carries the bytes.
///
/// ``URLSessionTransport`` is the default. Another HTTP client plugs in by conforming and being
/// returned from the API's `transport`: `AsyncHTTPClientTransport` (product
/// `RESTNetworkingAsyncHTTPClient`, on SwiftNIO) is one, and can trust a per-process CA on Linux.
public protocol RESTTransport: Sendable {
    /// Sends `request` and calls `completion` exactly once: with the answer, whatever its status,
    /// or with the failure — a refused connection, a broken answer or a TLS refusal as an
    /// ``HTTPTransportError`` (so retry policies can classify it), anything else as it came.
    ///
    /// - Returns: a cancel that ends the request at once (the connection is closed, so a server
    ///   sees the client go); `completion` then still gets called once, with an error.
    func send(
        _ request: URLRequest,
        completion: @escaping @Sendable (Result<HTTPResponseOutput, any Error>) -> Void
    ) -> RetryCancellation
}
