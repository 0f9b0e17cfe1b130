/// A raw HTTP exchange the retry operators apply to: `RESTCall` (async) and `HTTPRequestPublisher`
/// (Combine). The typed wrappers (`TypedExchange`) forward to these, so every operator has one
/// implementation per form, shared by typed and untyped calls.
public protocol RetryableExchange {
    /// Retries failed attempts as `policy` decides, waiting on `scheduler`.
    func retrying(using policy: some RetryDeciding, scheduler: any RetryScheduler, onRetry: RetryObserver?) -> Self
    /// On a 401, refreshes the token with `refresher` and retries once.
    func retryOnUnauthorized(refreshingWith refresher: AccessTokenRefresher) -> Self
}

extension RESTCall: RetryableExchange {}
extension HTTPRequestPublisher: RetryableExchange {}
