import Foundation

/// The clock of one world (a session, or the daemon's main port), over its admin API
/// (`/__admin/clock`). Freeze it, advance it, set it, and let it run again; an advance answers with
/// what it released, so a test can "advance, then assert" with nothing racing.
///
/// ```swift
/// let session = try await Understudy.session(clock: .frozen(at: Date(timeIntervalSince1970: 1_893_456_000)))
/// let fired = try await session.clock.advance(by: .seconds(60))  // a 60 s window rolls at once
/// ```
public struct UnderstudyClock: Sendable {
    let admin: UnderstudyAdmin

    /// The clock as the daemon reports it.
    public struct State: Sendable, Equatable, Decodable {
        /// `"real"`, `"frozen"` or `"offset"`.
        public var mode: String
        /// The world's time (ISO-8601, milliseconds).
        public var now: String
        /// The real time.
        public var wallTime: String
        /// The world's time minus the real time, in milliseconds.
        public var offsetMs: Int
        /// Delays and stream pieces waiting for an advance.
        public var held: Int
        /// What the call released (advance and set only).
        public var fired: [FiredClockEvent]?
    }

    /// `GET /__admin/clock`.
    public func state() async throws -> State {
        try await admin.send("GET", "/__admin/clock")
    }

    /// The world's time now.
    public var now: Date {
        get async throws {
            let text = try await state().now
            guard let date = Self.parse(text) else {
                throw UnderstudyError.unsupported("unreadable clock time \(text)")
            }
            return date
        }
    }

    /// Stops the clock at `date` (now when nil).
    @discardableResult
    public func freeze(at date: Date? = nil) async throws -> State {
        try await post(JSONMember("freeze", date.map { .string(Self.format($0)) } ?? .null))
    }

    /// Moves the clock forward by `duration`, firing what falls due on the way in time order;
    /// returns what fired.
    @discardableResult
    public func advance(by duration: Duration) async throws -> [FiredClockEvent] {
        try await post(JSONMember("advance", .number(String(Self.milliseconds(duration))))).fired ?? []
    }

    /// Moves the clock forward to `date` (never backwards: the daemon answers 400); returns what fired.
    @discardableResult
    public func set(to date: Date) async throws -> [FiredClockEvent] {
        try await post(JSONMember("set", .string(Self.format(date)))).fired ?? []
    }

    /// Back to real time; held delays go back to real timers for what remains of their wait.
    @discardableResult
    public func resume() async throws -> State {
        try await post(JSONMember("real", .bool(true)))
    }

    private func post(_ member: JSONMember) async throws -> State {
        try await admin.send("POST", "/__admin/clock", body: Data(JSONValue.object([member]).jsonText.utf8))
    }

    /// Whole milliseconds and a fraction, as the admin API takes them.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

extension Understudy {
    /// This world's clock (the session's, for a session handle).
    public var clock: UnderstudyClock { UnderstudyClock(admin: admin) }
}
