/// A typed call for Combine: publishes the decoded answer. Built on the raw
/// `HTTPRequestPublisher`; every operator is that publisher's own, applied to `exchange`, and
/// decoding happens once, after all of them.
///
/// ```swift
/// api.publisher(for: Endpoint<[Post]>(.get, "posts"))
///     .respondToRateLimiting(maxRetries: 2, maxSecondsToWait: 5)
///     .sink(receiveCompletion: { _ in }, receiveValue: { posts in ... })
/// ```
public struct EndpointPublisher<Response: Sendable>: Publisher, TypedExchange {
    public typealias Output = Response
    public typealias Failure = any Error

    /// The exchange before decoding.
    public let exchange: HTTPRequestPublisher
    private let decode: @Sendable (HTTPResponseOutput) throws -> Response

    init(exchange: HTTPRequestPublisher, decode: @escaping @Sendable (HTTPResponseOutput) throws -> Response) {
        self.exchange = exchange
        self.decode = decode
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        exchange.catchHTTPErrors().tryMap(decode).receive(subscriber: subscriber)
    }

    /// Applies any operator on HTTP exchanges — your own included — to the exchange. The retry
    /// operators (`retrying`, `respondToRateLimiting`, `retryOnFailure`, `retryOnUnauthorized`)
    /// come from `TypedExchange`.
    public func mapExchange(_ transform: (HTTPRequestPublisher) -> HTTPRequestPublisher) -> EndpointPublisher {
        EndpointPublisher(exchange: transform(exchange), decode: decode)
    }

    /// See `Publisher.tryCatch(_:_:)`: the handler's exchange is decoded like any other.
    public func tryCatch<E: Error & Equatable, P: Publisher>(
        _ error: E, _ handler: @escaping (E) throws -> P
    ) -> EndpointPublisher where P.Output == HTTPResponseOutput {
        mapExchange { $0.tryCatch(error, handler) }
    }
}
