/// Starts callback-based work when demand arrives and publishes its one result. Cancelling the
/// subscription runs the work's cancellation and guarantees nothing more is sent downstream —
/// which is what makes cancelling during a retry delay or a data task quiet and immediate.
struct CallbackPublisher<Output: Sendable>: Publisher {
    typealias Failure = any Error
    typealias Completion = @Sendable (Result<Output, any Error>) -> Void

    /// Begins the work, calls the completion once, and returns how to cancel it.
    let start: @Sendable (@escaping Completion) -> RetryCancellation

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        // Erased so the subscription (which crosses threads) never captures the subscriber's type.
        subscriber.receive(subscription: CallbackSubscription(subscriber: AnySubscriber(subscriber), start: start))
    }
}

private final class CallbackSubscription<Value: Sendable>: Subscription, @unchecked Sendable {
    typealias Downstream = AnySubscriber<Value, any Error>

    private struct State {
        var downstream: Downstream?
        var started = false
        var cancelWork: RetryCancellation?
    }

    private let state: Locked<State>
    private let start: @Sendable (@escaping @Sendable (Result<Value, any Error>) -> Void) -> RetryCancellation

    init(
        subscriber: Downstream,
        start: @escaping @Sendable (@escaping @Sendable (Result<Value, any Error>) -> Void) -> RetryCancellation
    ) {
        self.state = Locked(State(downstream: subscriber))
        self.start = start
    }

    func request(_ demand: Subscribers.Demand) {
        let shouldStart = state.withLock { s -> Bool in
            guard demand > .none, !s.started, s.downstream != nil else { return false }
            s.started = true
            return true
        }
        guard shouldStart else { return }
        let cancelWork = start { [weak self] result in self?.finish(result) }
        // The work may have finished (or been cancelled) while it was starting.
        let stillRunning = state.withLock { s -> Bool in
            guard s.downstream != nil else { return false }
            s.cancelWork = cancelWork
            return true
        }
        if !stillRunning { cancelWork() }
    }

    func cancel() {
        let cancelWork = state.withLock { s -> RetryCancellation? in
            s.downstream = nil
            defer { s.cancelWork = nil }
            return s.cancelWork
        }
        cancelWork?()
    }

    private func finish(_ result: Result<Value, any Error>) {
        guard
            let downstream = state.withLock({ s -> Downstream? in
                defer {
                    s.downstream = nil
                    s.cancelWork = nil
                }
                return s.downstream
            })
        else { return }
        switch result {
        case let .success(value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case let .failure(error):
            downstream.receive(completion: .failure(error))
        }
    }
}

extension CallbackPublisher where Output == Void {
    /// Publishes once after `delay` seconds on `scheduler`, unless `cancellation` is raised first.
    static func delay(
        _ delay: TimeInterval, on scheduler: any RetryScheduler,
        unless cancellation: CancellationFlag
    ) -> CallbackPublisher<Void> {
        CallbackPublisher { completion in
            scheduler.schedule(after: delay) {
                if !cancellation.isCancelled { completion(.success(())) }
            }
        }
    }
}
