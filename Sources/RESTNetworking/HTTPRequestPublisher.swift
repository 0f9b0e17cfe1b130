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
    private let upstream: AnyPublisher<Output, Failure>

    /// Wraps any publisher of HTTP exchanges, e.g. one built in a test from canned responses.
    public init<P: Publisher>(method: HTTPMethod?, _ upstream: P) where P.Output == Output, P.Failure == Failure {
        self.method = method
        self.upstream = upstream.eraseToAnyPublisher()
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.receive(subscriber: subscriber)
    }
}

extension Publisher where Output == HTTPResponseOutput, Failure == any Error {
    /// This publisher as an `HTTPRequestPublisher` (keeping its method if it already is one).
    var asHTTPRequestPublisher: HTTPRequestPublisher {
        (self as? HTTPRequestPublisher) ?? HTTPRequestPublisher(method: nil, self)
    }
}
