/// Decides retries after transient failures: 408, 500, 502, 503, 504 and connection failures
/// (`HTTPTransportError` kinds `cannotConnect`, `connectionLost`, `emptyResponse`,
/// `truncatedResponse`, `timedOut`). A `malformedResponse` is not retried: the server did answer,
/// and sending the same request again will not make it speak HTTP.
///
/// Delays are exponential with full jitter (a uniform pick in `0...min(maxDelay, baseDelay·2ⁿ)`),
/// except that a 503 carrying `Retry-After` waits what the server asked. No retry is scheduled
/// past `maxAttempts` attempts in all, or if it would start after `totalBudget` seconds. Only
/// idempotent methods are retried unless `retriesNonIdempotentRequests` is set, because a POST
/// whose connection dropped may already have taken effect, or unless the request carries an
/// idempotency key: with `idempotencyKeys` at its default, every logical `POST` and `PATCH` gets
/// one, sent on each attempt, so the server can replay its first answer instead of acting twice.
/// A keyed request's 409 (its first attempt is still being answered) is retried after the
/// backoff too; a key mismatch (`IdempotencyKeyMismatch`) never is.
public struct RetryPolicy: RetryDeciding, Equatable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// The backoff of the first retry, in seconds; it doubles for each retry after.
    public var baseDelay: TimeInterval
    /// The longest backoff, in seconds.
    public var maxDelay: TimeInterval
    /// No retry starts later than this many seconds after the first attempt.
    public var totalBudget: TimeInterval
    /// The status codes that are retried.
    public var retryableStatusCodes: Set<Int>
    /// Transport failures that mean the request may not have reached the server, or the answer
    /// was lost on the way back.
    public var retryableTransportFailures: Set<HTTPTransportError.Kind>
    /// Whether `POST` and `PATCH` (and other non-idempotent methods) are retried too.
    public var retriesNonIdempotentRequests: Bool
    /// Whether a 503's `Retry-After` replaces the backoff.
    public var honoursRetryAfter: Bool
    /// How `POST` and `PATCH` attempts are keyed; `.callerSupplied` sends only a key the caller set.
    public var idempotencyKeys: IdempotencyKeys

    /// The default policy: 3 attempts, 0.2 s base, 5 s cap, 30 s budget.
    public static let `default` = RetryPolicy()

    /// A policy with these limits.
    public init(
        maxAttempts: Int = 3,
        baseDelay: TimeInterval = 0.2,
        maxDelay: TimeInterval = 5,
        totalBudget: TimeInterval = 30,
        retryableStatusCodes: Set<Int> = [408, 500, 502, 503, 504],
        retryableTransportFailures: Set<HTTPTransportError.Kind> = RetryPolicy.connectionFailures,
        retriesNonIdempotentRequests: Bool = false,
        honoursRetryAfter: Bool = true,
        idempotencyKeys: IdempotencyKeys = .generated
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.totalBudget = totalBudget
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableTransportFailures = retryableTransportFailures
        self.retriesNonIdempotentRequests = retriesNonIdempotentRequests
        self.honoursRetryAfter = honoursRetryAfter
        self.idempotencyKeys = idempotencyKeys
    }

    /// Connection failures: refused, reset, closed without a response or mid-body, timed out.
    public static let connectionFailures: Set<HTTPTransportError.Kind> = [
        .cannotConnect, .connectionLost, .emptyResponse, .truncatedResponse, .timedOut,
    ]

    /// The largest delay retry number `retry` (0-based) may get before any `Retry-After`.
    public func backoffCap(forRetry retry: Int) -> TimeInterval {
        min(maxDelay, baseDelay * pow(2, Double(retry)))
    }

    /// Retry a retryable failure after a jittered backoff, within the attempts and the budget.
    public func decision(for context: RetryContext) -> RetryDecision {
        guard context.retriesSoFar + 1 < maxAttempts, isRetryable(context.error) || isInProgress(context) else {
            return .fail
        }
        guard
            retriesNonIdempotentRequests || context.idempotencyKey != nil || (context.method?.isIdempotent ?? false)
        else { return .fail }
        var delay = context.randomUnit * backoffCap(forRetry: context.retriesSoFar)
        if honoursRetryAfter, let error = context.error as? HTTPServerError, error.statusCode == 503,
            let retryAfter = error.retryAfter
        {
            delay = retryAfter
        }
        guard context.elapsed + delay <= totalBudget else { return .fail }
        return .retry(after: delay)
    }

    /// A 409 to a keyed request: the server is still answering the key's first attempt, so the
    /// same key will get the answer (or a replay of it) once that one is done.
    private func isInProgress(_ context: RetryContext) -> Bool {
        context.idempotencyKey != nil && (context.error as? HTTPClientError)?.statusCode == 409
    }

    /// Whether `error` is a transient failure this policy retries.
    public func isRetryable(_ error: any Error) -> Bool {
        switch error {
        case let error as any HTTPError: retryableStatusCodes.contains(error.statusCode)
        case let error as HTTPTransportError: retryableTransportFailures.contains(error.kind)
        case let error as URLError: retryableTransportFailures.contains(HTTPTransportError(error, url: "").kind)
        default: false
        }
    }
}
