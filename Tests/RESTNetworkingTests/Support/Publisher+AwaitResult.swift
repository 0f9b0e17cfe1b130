import RESTNetworking
import XCTest

extension Publisher where Failure == any Error {
    /// Subscribes and waits (without blocking a thread) for the first value or the failure.
    /// `timeout` is a safety net for a hung publisher, far above any wait the tests expect.
    func awaitResult(timeout: TimeInterval = 30) async -> Result<Output, any Error> where Output: Sendable {
        let box = ResultBox<Output>()
        let cancellable = sink(
            receiveCompletion: { completion in
                if case let .failure(error) = completion {
                    box.finish(.failure(error))
                } else {
                    box.finish(.failure(PublisherTestError.finishedWithoutValue))
                }
            }, receiveValue: { box.finish(.success($0)) })
        let result = await box.wait(timeout: timeout)
        cancellable.cancel()
        return result
    }
}

enum PublisherTestError: Error {
    case finishedWithoutValue
    case timedOut
}

/// The first result delivered, handed to one async waiter.
final class ResultBox<Output: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Output, any Error>?
    private var continuation: CheckedContinuation<Result<Output, any Error>, Never>?

    func finish(_ value: Result<Output, any Error>) {
        lock.lock()
        guard result == nil else {
            lock.unlock()
            return
        }
        result = value
        let waiter = continuation
        continuation = nil
        lock.unlock()
        waiter?.resume(returning: value)
    }

    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return result != nil
    }

    func wait(timeout: TimeInterval) async -> Result<Output, any Error> {
        let timer = Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
            self?.finish(.failure(PublisherTestError.timedOut))
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            lock.lock()
            if let result {
                lock.unlock()
                continuation.resume(returning: result)
            } else {
                self.continuation = continuation
                lock.unlock()
            }
        }
    }
}
