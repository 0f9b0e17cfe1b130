/// The `retryAfter` convenience on a response.
public enum RetryAfterSetting: Sendable, Equatable {
    /// A number of seconds, written exactly as given in the stub (`1.5` → `Retry-After: 1.5`).
    case seconds(String)
    /// An IMF-fixdate this many seconds after the response is sent (after its delay).
    case httpDateIn(Double)
}
