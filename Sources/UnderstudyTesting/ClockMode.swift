import Foundation

/// How a session's clock starts (`POST /__admin/sessions` with `"clock"`): real time, frozen at an
/// instant, or real time shifted by a fixed offset. Given to `Understudy.session(stubs:clock:)` or
/// the `.understudy(…, clock:)` trait.
///
/// ```swift
/// let session = try await Understudy.session(clock: .frozen(at: Date(timeIntervalSince1970: 1_893_456_000)))
/// let fired = try await session.clock.advance(by: .seconds(30))
/// ```
public enum ClockMode: Sendable, Equatable {
    /// Real time (the default).
    case real
    /// Stopped at this instant; it moves only when the test advances it.
    case frozen(at: Date)
    /// Real time shifted by this much (negative for the past).
    case offset(Duration)

    /// The `"clock"` member of a session's creation body.
    var json: JSONValue {
        switch self {
        case .real:
            return .object([JSONMember("real", .bool(true))])
        case .frozen(let date):
            return .object([JSONMember("frozenAt", .string(UnderstudyClock.format(date)))])
        case .offset(let duration):
            return .object([JSONMember("offset", .number(String(UnderstudyClock.milliseconds(duration))))])
        }
    }
}
