/// How a retrying call keys its attempts, so that a retried `POST` cannot take effect twice.
///
/// With `.generated` (the default of `RetryPolicy`), the retry operators give each logical call
/// of a `POST` or `PATCH` one fresh key, made before its first attempt and sent on every
/// attempt in the `Idempotency-Key` header, as the IETF draft "The Idempotency-Key HTTP Header
/// Field" (draft-ietf-httpapi-idempotency-key-header-07) and Stripe's, Adyen's and Square's own
/// SDKs do. A key the caller sets itself (in the endpoint's headers or the request modifier) is
/// kept instead, under either setting.
///
/// A request that carries a key counts as idempotent for `RetryPolicy`, so it is retried without
/// `retriesNonIdempotentRequests`: the server replays its first answer rather than acting again.
///
/// ```swift
/// let charge = try await api.call(Endpoint<Charge>(.post, "v1/charges", form: ["amount": 2000]))
///     .retryOnFailure()          // one key for the three attempts it may make
///     .value()
/// ```
public struct IdempotencyKeys: Sendable, Hashable {
    /// Whether the retry operators make a key, or only send the caller's.
    public enum Generation: Sendable, Hashable {
        /// One new key per logical call, for the methods in `methods`.
        case perLogicalCall
        /// None: only a key the caller set is sent (and makes the request count as idempotent).
        case callerSupplied
    }

    /// The header the key travels in; `Idempotency-Key` unless the API names it otherwise.
    public var header: String
    /// Whether keys are made.
    public var generation: Generation
    /// The methods that get a made key: `POST` and `PATCH`, the ones that are not idempotent by
    /// themselves.
    public var methods: Set<HTTPMethod>

    /// Keys in `header` for `methods`, made as `generation` says.
    public init(
        header: String = "Idempotency-Key", generation: Generation = .perLogicalCall,
        methods: Set<HTTPMethod> = [.post, .patch]
    ) {
        self.header = header
        self.generation = generation
        self.methods = methods
    }

    /// A new key for every logical `POST` and `PATCH`, in `Idempotency-Key`.
    public static let generated = IdempotencyKeys()
    /// No key is made; a key the caller sets in `Idempotency-Key` is still honoured.
    public static let callerSupplied = IdempotencyKeys(generation: .callerSupplied)

    /// Whether a request with `method` gets a made key.
    func generates(for method: HTTPMethod) -> Bool {
        generation == .perLogicalCall && methods.contains(method)
    }
}
