#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the engine reads time. Injected so tests can step time forward (rate-limit windows,
/// `elapsedMs`, HTTP dates) without sleeping.
public protocol EngineClock {
    /// Wall-clock time, for journal timestamps and HTTP dates.
    var now: Date { get }
    /// A monotonic reading in nanoseconds, for elapsed times and rate-limit windows; it never
    /// goes backwards when the wall clock is adjusted.
    var monotonicNanoseconds: UInt64 { get }
}

/// The real clocks: `Date()` and `CLOCK_MONOTONIC`.
public struct SystemEngineClock: EngineClock {
    /// The machine's clocks; there is nothing to configure.
    public init() {}

    public var now: Date { Date() }

    public var monotonicNanoseconds: UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}

/// A clock that moves only when told to, for tests and benchmarks. Both readings advance together.
public final class ManualEngineClock: EngineClock {
    /// The current wall-clock reading.
    public private(set) var now: Date
    /// The current monotonic reading.
    public private(set) var monotonicNanoseconds: UInt64

    /// Creates a clock at `start` (default 2026-01-01T00:00:00Z) with the monotonic reading at `monotonicStart`.
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600), monotonicStart: UInt64 = 1_000_000_000) {
        self.now = start
        self.monotonicNanoseconds = monotonicStart
    }

    /// Moves both readings forward by `seconds` (fractions allowed).
    public func advance(seconds: Double) {
        precondition(seconds >= 0, "a clock cannot go backwards")
        now = now.addingTimeInterval(seconds)
        monotonicNanoseconds &+= UInt64((seconds * 1_000_000_000).rounded())
    }

    /// Moves both readings forward by `milliseconds`.
    public func advance(milliseconds: Double) {
        advance(seconds: milliseconds / 1000)
    }
}

@available(*, unavailable)
extension ManualEngineClock: Sendable {}
