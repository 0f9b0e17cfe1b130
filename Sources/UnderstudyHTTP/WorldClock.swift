#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The clock of one world (the daemon's main port, or one session): real time, frozen at an
/// instant, or real time plus a fixed offset. Everything time-based in the world's engine reads it
/// (rate limits, `Date`, templates, the journal); the transport asks its ``schedule`` to hold
/// delays and paced bodies while it is frozen, and ``advance(byNanoseconds:)`` releases them.
///
/// Its monotonic reading never goes backwards, whatever the mode changes: freezing keeps it,
/// advancing moves it, resuming real time carries on from at least where it stood.
///
/// Not `Sendable`: the event loop drives it, like the engine that owns it. The stored properties
/// the engine reads per request are `@exclusivity(unchecked)`: only the event-loop thread touches
/// them and no access overlaps another, so the runtime's dynamic exclusivity check buys nothing.
public final class WorldClock: EngineClock {
    /// How the clock moves.
    public enum Mode: String, Sendable {
        /// Real time, as the source reads it.
        case real
        /// Stopped at an instant; moves only when advanced or set.
        case frozen
        /// Real time plus a fixed shift (set by an advance or `set` while the clock runs).
        case offset
    }

    /// How a world's clock starts (`POST /__admin/sessions` with `"clock"`).
    public enum Start: Sendable, Equatable {
        /// Real time.
        case real
        /// Frozen at this many seconds since 1970.
        case frozen(at: Double)
        /// Real time shifted by this many seconds.
        case offset(seconds: Double)
    }

    /// Where real time comes from (``SystemEngineClock`` in the daemon; a manual clock in tests).
    public let source: any EngineClock
    /// The current mode.
    @exclusivity(unchecked) public private(set) var mode: Mode = .real
    /// The held delays and paced pieces of a frozen clock.
    public let schedule = ClockSchedule()
    /// Frozen mode: the instant (seconds since 1970) and the monotonic reading it stands at.
    @usableFromInline @exclusivity(unchecked) var frozenSeconds = 0.0
    @usableFromInline @exclusivity(unchecked) var frozenNanoseconds: UInt64 = 0
    /// Offset mode: seconds added to the source's wall reading.
    @usableFromInline @exclusivity(unchecked) var offsetSeconds = 0.0
    /// Added to the source's monotonic reading outside frozen mode; it only grows, so the reading
    /// never goes backwards after a freeze or an advance.
    @usableFromInline @exclusivity(unchecked) var monotonicShift: UInt64 = 0

    /// A clock reading `source`, started as `start` says.
    public init(source: any EngineClock = SystemEngineClock(), start: Start = .real) {
        self.source = source
        switch start {
        case .real: break
        case .frozen(let at): freeze(at: at)
        case .offset(let seconds):
            mode = .offset
            offsetSeconds = seconds
        }
    }

    /// The world's wall-clock time.
    @inlinable
    public var now: Date { Date(timeIntervalSince1970: nowSeconds) }

    /// The world's wall-clock time in seconds since 1970.
    @inlinable
    public var nowSeconds: Double {
        switch mode {
        case .real: return source.now.timeIntervalSince1970
        case .frozen: return frozenSeconds
        case .offset: return source.now.timeIntervalSince1970 + offsetSeconds
        }
    }

    /// The world's monotonic reading in nanoseconds.
    @inlinable
    public var monotonicNanoseconds: UInt64 {
        // Real mode with no shift is the daemon's usual case: one compare, then the source.
        if mode == .frozen { return frozenNanoseconds }
        return source.monotonicNanoseconds &+ monotonicShift
    }

    /// What a running world adds to its source's monotonic reading (the advances made while it ran):
    /// a reading of ``monotonicNanoseconds`` less this is the source's, at the same instant.
    @inlinable
    public var monotonicShiftNanoseconds: UInt64 { monotonicShift }

    /// Whether the world's time differs from real time (then the journal also writes `wallTime`
    /// and the engine writes the `Date` header itself).
    @inlinable
    public var isVirtual: Bool { mode != .real }

    /// Whether delays and paced bodies wait for ``advance(byNanoseconds:)`` instead of a real timer.
    @inlinable
    public var holdsTimers: Bool { mode == .frozen }

    /// Stops the clock at `seconds` since 1970 (now when nil). The monotonic reading stays where it is.
    public func freeze(at seconds: Double? = nil) {
        let wall = seconds ?? nowSeconds
        frozenNanoseconds = monotonicNanoseconds
        frozenSeconds = wall
        mode = .frozen
    }

    /// Moves the clock forward by `nanoseconds`. A frozen clock fires what falls due on the way, in
    /// time order, each at its own instant; a running one shifts its offset. Returns what fired.
    @discardableResult
    public func advance(byNanoseconds nanoseconds: UInt64) -> [ClockEvent] {
        guard mode == .frozen else {
            offsetSeconds += Double(nanoseconds) / 1_000_000_000
            monotonicShift &+= nanoseconds
            mode = .offset
            return []
        }
        let target = frozenNanoseconds &+ nanoseconds
        let targetSeconds = frozenSeconds + Double(nanoseconds) / 1_000_000_000
        var fired: [ClockEvent] = []
        while let item = schedule.takeFirst(dueBy: target) {
            // Each item sees the clock at its own due time, so what it writes (a journal entry, a
            // `Date`) and what it schedules next (the following SSE event) is timed from there.
            if item.dueNanoseconds > frozenNanoseconds {
                frozenSeconds += Double(item.dueNanoseconds - frozenNanoseconds) / 1_000_000_000
                frozenNanoseconds = item.dueNanoseconds
            }
            if var event = item.fire() {
                event.at = frozenSeconds
                fired.append(event)
            }
        }
        frozenNanoseconds = target
        frozenSeconds = targetSeconds
        return fired
    }

    /// Back to real time. The monotonic reading carries on from at least where it stood; held
    /// items go back to real timers for what remains of their wait.
    public func resume() {
        if mode == .frozen {
            let source = self.source.monotonicNanoseconds
            if frozenNanoseconds > source &+ monotonicShift { monotonicShift = frozenNanoseconds &- source }
        }
        mode = .real
        offsetSeconds = 0
        let now = monotonicNanoseconds
        for item in schedule.takeAll() {
            item.release(item.dueNanoseconds > now ? item.dueNanoseconds - now : 0)
        }
    }
}

@available(*, unavailable)
extension WorldClock: Sendable {}
