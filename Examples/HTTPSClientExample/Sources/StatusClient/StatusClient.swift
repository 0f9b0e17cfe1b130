import AsyncHTTPClient
import Foundation
import NIOSSL
import RESTNetworking
import RESTNetworkingAsyncHTTPClient

/// A service's status page client, as a server-side Swift team would write it: RESTNetworking's
/// typed calls over AsyncHTTPClient, verifying the server's certificate against the trust roots
/// it is given (the machine's by default).
public struct StatusClient: RESTAPIProtocol {
    public let baseURL: URL
    public let transport: any RESTTransport
    public let pacer = RequestPacer.unpaced

    /// A client of the service at `baseURL` (https), sending on `httpClient` with `tls` (nil: the
    /// client's own configuration and the machine's trust roots).
    public init(baseURL: URL, httpClient: HTTPClient = .shared, tls: TLSConfiguration? = nil) {
        self.baseURL = baseURL
        self.transport = AsyncHTTPClientTransport(client: httpClient, tlsConfiguration: tls)
    }

    /// `GET /v1/status`, decoded. A refused certificate throws `HTTPTransportError` with
    /// `kind == .tls` and the reason in `tls`.
    public func status() async throws -> ServiceStatus {
        try await send(Endpoint<ServiceStatus>(.get, "v1/status"))
    }
}

/// What `/v1/status` answers.
public struct ServiceStatus: Codable, Sendable, Equatable {
    public var service: String
    public var healthy: Bool

    public init(service: String, healthy: Bool) {
        self.service = service
        self.healthy = healthy
    }
}
