/// A typed call for async/await: the raw `RESTCall` it is built on plus how to decode its answer.
///
/// Every operator is `RESTCall`'s own, applied to `exchange` (one implementation for typed and
/// untyped calls); decoding happens once, after all of them, on the answer that finally succeeded.
///
/// ```swift
/// let profile = try await api.call(Endpoint<Profile>(.get, "profile"))
///     .retryOnUnauthorized(refreshingWith: tokens)
///     .respondToRateLimiting(maxRetries: 2, maxSecondsToWait: 5)
///     .value()
/// ```
public struct EndpointCall<Response: Sendable>: TypedExchange, Sendable {
    /// The exchange before decoding.
    public let exchange: RESTCall
    private let decode: @Sendable (HTTPResponseOutput) throws -> Response

    init(exchange: RESTCall, decode: @escaping @Sendable (HTTPResponseOutput) throws -> Response) {
        self.exchange = exchange
        self.decode = decode
    }

    /// Sends the request (with whatever retries the operators add) and decodes the answer.
    public func value() async throws -> Response {
        try await response().value
    }

    /// The decoded value and the response it came with (for headers or the status).
    public func response() async throws -> (value: Response, response: HTTPURLResponse) {
        let output = try await exchange.catchHTTPErrors().response()
        return (try decode(output), output.response)
    }

    /// Applies any operator of `RESTCall` — your own included — to the exchange. The retry
    /// operators (`retrying`, `respondToRateLimiting`, `retryOnFailure`, `retryOnUnauthorized`)
    /// come from `TypedExchange`.
    public func mapExchange(_ transform: (RESTCall) -> RESTCall) -> EndpointCall {
        EndpointCall(exchange: transform(exchange), decode: decode)
    }

    /// See `RESTCall.tryCatch(_:_:)`: the handler answers with an exchange, which is decoded like any other.
    public func tryCatch<E: Error & Equatable>(
        _ error: E, _ handler: @escaping @Sendable (E) async throws -> HTTPResponseOutput
    ) -> EndpointCall {
        mapExchange { $0.tryCatch(error, handler) }
    }
}
