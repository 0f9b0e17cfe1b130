/// Real time: the monotonic uptime clock, and timers on a global dispatch queue.
public struct SystemRetryScheduler: RetryScheduler {
    /// The scheduler that waits in real time.
    public init() {}

    public var now: TimeInterval {
        TimeInterval(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }

    public func schedule(after delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> RetryCancellation {
        // A flag rather than DispatchWorkItem.cancel(): the work item is not Sendable on Linux,
        // and the flag also covers a timer that has already fired but not yet run.
        let cancelled = Locked(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, delay)) {
            if !cancelled.withLock({ $0 }) { action() }
        }
        return { cancelled.withLock { $0 = true } }
    }
}
