extension RESTAPIProtocol {
    /// Sends `endpoint` and returns its decoded answer. 4xx/5xx fail as `HTTPClientError` /
    /// `HTTPServerError`, an undecodable body as `ResponseDecodingError`. For operators (retries,
    /// token refresh), chain them on `call(_:requestModifier:)` instead.
    public func send<Response>(
        _ endpoint: Endpoint<Response>,
        requestModifier: @escaping RequestModifier = { $0 }
    ) async throws -> Response {
        try await call(endpoint, requestModifier: requestModifier).value()
    }

    /// `endpoint` as an async call to chain operators on; run it with `value()`. Each attempt
    /// builds the request again and re-runs `requestModifier`.
    public func call<Response>(
        _ endpoint: Endpoint<Response>,
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> EndpointCall<Response> {
        EndpointCall(
            exchange: call(for: endpoint.requestParts, requestModifier: requestModifier),
            decode: endpoint.decodeResponse)
    }

    /// `endpoint` as a publisher of its decoded answer, with the same operators. Nothing is sent
    /// until subscription; each subscription (each retry) builds the request again.
    public func publisher<Response>(
        for endpoint: Endpoint<Response>,
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> EndpointPublisher<Response> {
        EndpointPublisher(
            exchange: publisher(for: endpoint.requestParts, requestModifier: requestModifier),
            decode: endpoint.decodeResponse)
    }
}
