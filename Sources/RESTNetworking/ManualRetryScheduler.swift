/// A scheduler whose time moves only when told to, so tests of retry delays run instantly and
/// can read exactly which delays were asked for.
public final class ManualRetryScheduler: RetryScheduler, @unchecked Sendable {
    private struct Pending {
        var id: Int
        var due: TimeInterval
        var action: @Sendable () -> Void
    }

    private struct State {
        var now: TimeInterval = 0
        var nextID = 0
        var pending: [Pending] = []
        var requestedDelays: [TimeInterval] = []
    }

    private let state = Locked(State())

    /// A scheduler at time zero with nothing pending.
    public init() {}

    public var now: TimeInterval { state.withLock { $0.now } }

    /// Every delay asked of this scheduler, in order (including ones later cancelled).
    public var requestedDelays: [TimeInterval] { state.withLock { $0.requestedDelays } }

    /// How many scheduled actions have neither run nor been cancelled.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    public func schedule(after delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> RetryCancellation {
        let id = state.withLock { s -> Int in
            s.nextID += 1
            s.requestedDelays.append(delay)
            s.pending.append(Pending(id: s.nextID, due: s.now + max(0, delay), action: action))
            return s.nextID
        }
        return { [state] in state.withLock { $0.pending.removeAll { $0.id == id } } }
    }

    /// Moves time forward by `seconds`, running every action that falls due, in due order.
    /// Actions scheduled by those actions run too if they fall due within the same advance.
    public func advance(by seconds: TimeInterval) {
        let target = state.withLock { $0.now + seconds }
        while let next = state.withLock({ s -> Pending? in
            guard let index = s.pending.indices.min(by: { s.pending[$0].due < s.pending[$1].due }),
                s.pending[index].due <= target
            else { return nil }
            let item = s.pending.remove(at: index)
            s.now = max(s.now, item.due)
            return item
        }) {
            next.action()
        }
        state.withLock { $0.now = target }
    }
}
