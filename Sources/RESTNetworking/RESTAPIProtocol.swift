/// A REST API a service talks to: a base URL, the session requests go through, and (optionally)
/// a pacer that keeps them within the server's rate limit.
///
/// Conform a service to it and send typed `Endpoint`s (`send`, `call`, `publisher(for:)`), or
/// build untyped requests with `get`/`post`/`put`/`patch`/`delete` (publishers) or
/// `call(_:endpoint:query:body:requestModifier:)` (async/await):
///
/// ```swift
/// struct PostsAPI: RESTAPIProtocol {
///     let baseURL: URL
///     let pacer = RequestPacer()      // optional: pace to the server's RateLimit fields
/// }
/// let posts = try await PostsAPI(baseURL: url).call(Endpoint<[Post]>(.get, "posts"))
///     .respondToRateLimiting(maxRetries: 1, maxSecondsToWait: 2)
///     .value()
/// ```
public protocol RESTAPIProtocol: Sendable {
    /// Rewrites a request just before it is sent. It runs again on every subscription (every
    /// retry), so a header read from mutable state — an access token — is always the current one.
    typealias RequestModifier = @Sendable (URLRequest) -> URLRequest
    /// What the untyped request publishers publish: the body and the response.
    typealias Output = HTTPResponseOutput
    /// How the untyped request publishers fail.
    typealias Failure = any Error

    /// The URL endpoints are resolved against (`https://api.example.com/v1`).
    var baseURL: URL { get }
    /// The session requests are sent through; `URLSession.shared` unless a conformer says otherwise.
    var urlSession: URLSession { get }
    /// What requests go through: by default ``URLSessionTransport`` on `urlSession`; another
    /// ``RESTTransport`` (AsyncHTTPClient, say) when a conformer returns one.
    var transport: any RESTTransport { get }
    /// Paces every request of this API to the server's advertised rate limit; `.unpaced` (the
    /// default) sends at once. Keep one pacer per client (`let pacer = RequestPacer()`), so all its
    /// requests to a host, sequential or concurrent, share one budget. See `RequestPacer`.
    ///
    /// Declare it with exactly this type: a property of another type (`RequestPacer?`) would not
    /// be this requirement, and the API would silently stay unpaced.
    var pacer: RequestPacer { get }
}

extension RESTAPIProtocol {
    public var urlSession: URLSession { URLSession.shared }
    public var transport: any RESTTransport { URLSessionTransport(session: urlSession) }
    public var pacer: RequestPacer { .unpaced }
}
