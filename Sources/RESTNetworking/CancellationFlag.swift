/// Set when a subscriber cancels a retrying publisher. Combine does not promise that a `catch`
/// handler running on another thread at the moment of cancellation won't still subscribe what it
/// returns (OpenCombine does subscribe it), so the retry steps check this flag themselves: once it
/// is set, no timer completes and no request is sent.
final class CancellationFlag: Sendable {
    private let state = Locked(false)

    var isCancelled: Bool { state.withLock { $0 } }

    func cancel() {
        state.withLock { $0 = true }
    }
}

extension Publisher {
    /// Raises `flag` when the subscriber cancels.
    func settingOnCancel(_ flag: CancellationFlag) -> AnyPublisher<Output, Failure> {
        handleEvents(receiveCancel: { flag.cancel() }).eraseToAnyPublisher()
    }
}

extension CancellationFlag {
    /// `next()`, unless cancelled by now, in which case a publisher that never sends anything.
    func unlessCancelled<Output, Failure: Error>(
        _ next: () -> AnyPublisher<Output, Failure>
    ) -> AnyPublisher<Output, Failure> {
        isCancelled ? Empty(completeImmediately: false).eraseToAnyPublisher() : next()
    }
}
