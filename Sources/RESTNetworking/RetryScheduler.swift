/// Cancels work handed to a `RetryScheduler`.
public typealias RetryCancellation = @Sendable () -> Void

/// The clock and timer every retry delay goes through, in both the Combine operators and the
/// async API. Inject a `ManualRetryScheduler` to test delay arithmetic without waiting.
public protocol RetryScheduler: Sendable {
    /// Monotonic seconds; only differences between readings mean anything.
    var now: TimeInterval { get }
    /// Runs `action` once, `delay` seconds from now, unless the returned cancellation runs first.
    func schedule(after delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> RetryCancellation
}

extension RetryScheduler {
    /// Suspends for `delay` seconds on this scheduler; throws `CancellationError` as soon as the
    /// task is cancelled (the timer is cancelled with it).
    public func sleep(for delay: TimeInterval) async throws {
        let state = Locked<SleepState>(.waiting)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancel = schedule(after: delay) {
                    state.resume(with: .success(()))
                }
                // The timer or the cancellation may have won the race before the continuation was armed.
                let early: Result<Void, any Error>? = state.withLock { current in
                    switch current {
                    case let .ended(result):
                        return result
                    default:
                        current = .armed(continuation, cancel)
                        return nil
                    }
                }
                if let early {
                    if case .failure = early { cancel() }
                    continuation.resume(with: early)
                }
            }
        } onCancel: {
            state.resume(with: .failure(CancellationError()))
        }
    }
}

/// Where a `sleep` is: not yet armed, armed with its continuation, ended before it was armed,
/// or over.
private enum SleepState {
    case waiting
    case armed(CheckedContinuation<Void, any Error>, RetryCancellation)
    case ended(Result<Void, any Error>)
    case done
}

extension Locked where Value == SleepState {
    /// Resumes the sleeper at most once, whichever of timer and cancellation comes first.
    fileprivate func resume(with result: Result<Void, any Error>) {
        let pending: (CheckedContinuation<Void, any Error>, RetryCancellation)? = withLock { state in
            switch state {
            case let .armed(continuation, cancel):
                state = .done
                return (continuation, cancel)
            case .waiting:
                state = .ended(result)
                return nil
            case .ended, .done:
                return nil
            }
        }
        guard let (continuation, cancel) = pending else { return }
        if case .failure = result { cancel() }
        continuation.resume(with: result)
    }
}

extension RetryScheduler where Self == SystemRetryScheduler {
    /// Real time, on a global dispatch queue.
    public static var system: SystemRetryScheduler { SystemRetryScheduler() }
}
