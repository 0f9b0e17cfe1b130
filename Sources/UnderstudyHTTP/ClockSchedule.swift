/// What a frozen ``WorldClock`` holds instead of real timers: delayed responses and paced body
/// pieces, each due at a monotonic reading of the world's clock. The transport adds an item where it
/// would otherwise arm a libevent timer; ``WorldClock/advance(byNanoseconds:)`` takes the due ones in
/// time order (ties in the order they were held) and fires them on the event loop.
///
/// Pure Swift: the transport's timers stay in the transport. Not `Sendable`: the event loop drives it.
public final class ClockSchedule {
    /// One held item.
    public final class Item {
        /// The world's monotonic reading at which it falls due.
        public let dueNanoseconds: UInt64
        let order: Int
        /// Carries it out; returns what to list as fired, or nil when there was nothing left to do
        /// (the client went away first).
        let fire: () -> ClockEvent?
        /// Hands it back to a real timer, due after this many nanoseconds (the clock resumed).
        let release: (UInt64) -> Void
        /// Set when taken or cancelled, so it fires at most once.
        fileprivate(set) var done = false

        init(dueNanoseconds: UInt64, order: Int, fire: @escaping () -> ClockEvent?, release: @escaping (UInt64) -> Void)
        {
            self.dueNanoseconds = dueNanoseconds
            self.order = order
            self.fire = fire
            self.release = release
        }

        /// Drops the item (its connection closed): it will neither fire nor be released.
        public func cancel() {
            done = true
        }
    }

    private var items: [Item] = []
    private var held = 0

    init() {}

    /// How many items wait (cancelled ones excluded).
    public var count: Int { items.lazy.filter { !$0.done }.count }

    /// Holds an item due at the world's monotonic reading `dueNanoseconds`.
    @discardableResult
    public func hold(
        dueNanoseconds: UInt64, fire: @escaping () -> ClockEvent?,
        release: @escaping (UInt64) -> Void
    ) -> Item {
        held += 1
        let item = Item(dueNanoseconds: dueNanoseconds, order: held, fire: fire, release: release)
        items.append(item)
        return item
    }

    /// The earliest item due at or before `deadline`, removed; nil when none is.
    func takeFirst(dueBy deadline: UInt64) -> Item? {
        items.removeAll { $0.done }
        var best: Int?
        for (index, item) in items.enumerated() where item.dueNanoseconds <= deadline {
            if let current = best {
                let other = items[current]
                if item.dueNanoseconds < other.dueNanoseconds
                    || (item.dueNanoseconds == other.dueNanoseconds && item.order < other.order)
                {
                    best = index
                }
            } else {
                best = index
            }
        }
        guard let best else { return nil }
        let item = items.remove(at: best)
        item.done = true
        return item
    }

    /// Every waiting item, removed (the clock resumed real time).
    func takeAll() -> [Item] {
        let waiting = items.filter { !$0.done }.sorted { ($0.dueNanoseconds, $0.order) < ($1.dueNanoseconds, $1.order) }
        items.removeAll()
        for item in waiting { item.done = true }
        return waiting
    }
}

@available(*, unavailable)
extension ClockSchedule: Sendable {}

@available(*, unavailable)
extension ClockSchedule.Item: Sendable {}
