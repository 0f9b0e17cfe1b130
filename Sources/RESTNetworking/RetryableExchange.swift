/// A raw HTTP exchange the retry operators apply to: `RESTCall` (async) and `HTTPRequestPublisher`
/// (Combine). The typed wrappers (`TypedExchange`) forward to these, so every operator has one
/// implementation per form, shared by typed and untyped calls.
public protocol RetryableExchange {
    func retrying(using policy: some RetryDeciding, scheduler: any RetryScheduler, onRetry: RetryObserver?) -> Self
    func retryOnUnauthorized(refreshingWith refresher: AccessTokenRefresher) -> Self
}

extension RESTCall: RetryableExchange {}
extension HTTPRequestPublisher: RetryableExchange {}
