/// A publisher of one HTTP exchange, `(data, response)`, that remembers the request's method so
/// `retryOnFailure` can tell idempotent requests from the rest. Every operator of this library
/// returns one, so the method survives any chain of them.
///
/// Nothing is sent until it is subscribed to, and each subscription sends the request anew
/// (re-running the request modifier).
public struct HTTPRequestPublisher: Publisher {
    public typealias Output = HTTPResponseOutput
    public typealias Failure = any Error

    /// The request's method, or `nil` when this wraps a publisher of unknown origin.
    public let method: HTTPMethod?
    /// The attempts within a logical call's idempotency scope (`nil` outside any retry operator).
    private let attempts: (IdempotencyScope?) -> AnyPublisher<Output, Failure>

    /// Wraps any publisher of HTTP exchanges, e.g. one built in a test from canned responses.
    public init<P: Publisher>(method: HTTPMethod?, _ upstream: P) where P.Output == Output, P.Failure == Failure {
        self.method = method
        let erased = upstream.eraseToAnyPublisher()
        self.attempts = { _ in erased }
    }

    /// A publisher whose attempts take the logical call's idempotency scope (the requests this
    /// library builds, and its operators).
    init(method: HTTPMethod?, scoped attempts: @escaping (IdempotencyScope?) -> AnyPublisher<Output, Failure>) {
        self.method = method
        self.attempts = attempts
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        attempts(nil).receive(subscriber: subscriber)
    }

    /// The attempts within `scope`, for the operators.
    func attempts(in scope: IdempotencyScope?) -> AnyPublisher<Output, Failure> {
        attempts(scope)
    }

    /// This publisher with `transform` applied to its attempts, keeping the idempotency scope.
    func mapAttempts<P: Publisher>(
        _ transform: @escaping (AnyPublisher<Output, Failure>) -> P
    ) -> HTTPRequestPublisher where P.Output == Output, P.Failure == Failure {
        let attempts = self.attempts
        return HTTPRequestPublisher(
            method: method, scoped: { scope in transform(attempts(scope)).eraseToAnyPublisher() })
    }
}

extension Publisher where Output == HTTPResponseOutput, Failure == any Error {
    /// This publisher as an `HTTPRequestPublisher` (keeping its method if it already is one).
    var asHTTPRequestPublisher: HTTPRequestPublisher {
        (self as? HTTPRequestPublisher) ?? HTTPRequestPublisher(method: nil, self)
    }
}
