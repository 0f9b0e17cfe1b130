#if AsyncHTTPClient  // this module is empty without the AsyncHTTPClient trait (Package.swift)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import RESTNetworking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``RESTNetworking/RESTTransport`` on AsyncHTTPClient (SwiftNIO and swift-nio-ssl): every
/// operator of RESTNetworking — retry, rate limiting, refresh, pacing, typed endpoints — works
/// over it as over URLSession.
///
/// Unlike URLSession on Linux, it takes its trust roots per transport, so a test can trust
/// Understudy's per-process CA without the machine's trust store:
///
/// ```swift
/// let transport = AsyncHTTPClientTransport(tlsConfiguration: try await understudy.tlsConfiguration())
/// ```
///
/// Failures come back as ``RESTNetworking/HTTPTransportError`` with the same kinds URLSession's
/// give, and a refused certificate as `.tls` with its reason (see ``TLSFailureDiagnosis``). The
/// original AsyncHTTPClient or NIOSSL error is ``RESTNetworking/HTTPTransportError/cause``.
public struct AsyncHTTPClientTransport: RESTTransport {
    /// The client the requests run on. The transport never shuts it down: its owner does (the
    /// default, `HTTPClient.shared`, needs no shutdown).
    public let client: HTTPClient
    /// The TLS configuration every request carries (its trust roots decide which certificates are
    /// accepted); nil leaves the client's own, and refusals are then told apart against the
    /// system's trust roots.
    public let tlsConfiguration: TLSConfiguration?

    /// A transport over `client`, its HTTPS requests verified with `tlsConfiguration` when given.
    public init(client: HTTPClient = .shared, tlsConfiguration: TLSConfiguration? = nil) {
        self.client = client
        self.tlsConfiguration = tlsConfiguration
    }

    /// Sends `request` on ``client`` (see ``RESTNetworking/RESTTransport/send(_:completion:)``);
    /// the returned cancel cancels the AsyncHTTPClient task, which closes its connection.
    public func send(
        _ request: URLRequest,
        completion: @escaping @Sendable (Result<HTTPResponseOutput, any Error>) -> Void
    ) -> RetryCancellation {
        let url = request.url?.absoluteString ?? ""
        let outgoing: HTTPClient.Request
        do {
            outgoing = try Self.request(from: request, tlsConfiguration: tlsConfiguration)
        } catch {
            completion(.failure(HTTPTransportError(kind: .other, url: url, cause: error, code: .badURL)))
            return {}
        }
        let collector = ResponseCollector()
        // URLRequest's timeout (60 s unless set) bounds the whole exchange, as AsyncHTTPClient's
        // deadline does; URLSession's is an idle timeout, which no test here comes near.
        let deadline = NIODeadline.now() + .milliseconds(Int64(request.timeoutInterval * 1_000))
        let task = client.execute(request: outgoing, delegate: collector, deadline: deadline)
        let verification = self.tlsConfiguration ?? TLSConfiguration.makeClientConfiguration()
        let group = client.eventLoopGroup
        let requestURL = request.url
        task.futureResult.whenComplete { result in
            switch result {
            case let .success(head):
                completion(Self.output(head, body: collector.body, url: requestURL))
            case let .failure(error):
                let sawResponseHead = collector.sawHead
                guard Self.isCertificateVerificationFailure(error), let target = requestURL else {
                    completion(
                        .failure(
                            HTTPTransportError(
                                asyncHTTPClientError: error, url: url,
                                sawResponseHead: sawResponseHead)))
                    return
                }
                // NIOSSL says only "CERTIFICATE_VERIFY_FAILED": look at the chain to say why.
                Task {
                    let failure = await TLSFailureDiagnosis.diagnose(
                        url: target, configuration: verification,
                        group: group, error: error)
                    completion(
                        .failure(
                            HTTPTransportError(
                                kind: .tls, url: url, cause: error,
                                code: .secureConnectionFailed, tls: failure)))
                }
            }
        }
        return { task.cancel() }
    }

    /// The AsyncHTTPClient request for `request`: method, URL, headers, body and TLS configuration.
    static func request(from request: URLRequest, tlsConfiguration: TLSConfiguration?) throws -> HTTPClient.Request {
        // Dot segments removed (RFC 3986 §5.2.4), as URLSession (libcurl) does before sending.
        guard let url = request.url?.standardized else { throw AsyncHTTPClient.HTTPClientError.invalidURL }
        var headers = HTTPHeaders()
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
        let body = request.httpBody.map { HTTPClient.Body.bytes($0) }
        return try HTTPClient.Request(
            url: url, method: NIOHTTP1.HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            headers: headers, body: body, tlsConfiguration: tlsConfiguration)
    }

    /// The answer as RESTNetworking's `(Data, HTTPURLResponse)`.
    static func output(_ head: HTTPResponseHead, body: Data, url: URL?) -> Result<HTTPResponseOutput, any Error> {
        // HTTPURLResponse takes one value per name: repeated fields joined as RFC 9110 §5.3 allows.
        var fields: [String: String] = [:]
        for (name, value) in head.headers {
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        guard let url,
            let response = HTTPURLResponse(
                url: url, statusCode: Int(head.status.code),
                httpVersion: "HTTP/\(head.version.major).\(head.version.minor)",
                headerFields: fields)
        else { return .failure(RESTRequestError.notHTTPResponse(url: url?.absoluteString ?? "")) }
        return .success((data: body, response: response))
    }

    /// Whether BoringSSL refused the peer's chain (as opposed to the host name or the handshake).
    static func isCertificateVerificationFailure(_ error: any Error) -> Bool {
        guard let ssl = error as? NIOSSLError, case let .handshakeFailed(inner) = ssl else { return false }
        return "\(inner)".contains("CERTIFICATE_VERIFY_FAILED")
    }
}
#endif
