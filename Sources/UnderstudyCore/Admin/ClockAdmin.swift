/// `GET /__admin/clock` and `POST /__admin/clock`: the world's clock (``WorldClock``), on the main
/// port and on each session's.
///
/// A POST body is one of `{"freeze": INSTANT?}`, `{"advance": "PT30S" | milliseconds}`,
/// `{"set": INSTANT}` (never backwards) or `{"real": true}`. `advance` and `set` answer with what
/// fell due on the way (`fired`), in time order. A bad body is a 400 that changes nothing.
enum ClockAdmin {
    /// The keys a POST body may have (exactly one of them).
    static let keys = ["freeze", "advance", "set", "real"]

    static func get(_ call: AdminCall) -> HTTPResponse {
        AdminResponse.value(.object(describe(call.engine.clock)))
    }

    static func post(_ call: AdminCall) -> HTTPResponse {
        let clock = call.engine.clock
        let command: Command
        switch decode(call.request.body, now: clock.nowSeconds) {
        case .success(let value): command = value
        case .failure(let failure): return AdminResponse.error(400, failure.message)
        }
        var fired: [ClockEvent]?
        switch command {
        case .freeze(let at):
            clock.freeze(at: at)
        case .advance(let seconds):
            fired = advance(call.engine, by: seconds)
        case .set(let at):
            fired = advance(call.engine, by: max(0, at - clock.nowSeconds))
        case .real:
            clock.resume()
        }
        var members = describe(clock)
        if let fired { members.append(JSONMember("fired", .array(fired.map(encode)))) }
        return AdminResponse.value(.object(members))
    }

    /// Advances the clock and lists what fell due: held items as they fire, and rate limits that
    /// became whole on the way (merged in time order).
    private static func advance(_ engine: any EngineControl, by seconds: Double) -> [ClockEvent] {
        let clock = engine.clock
        let start = clock.nowSeconds
        let startNanoseconds = clock.monotonicNanoseconds
        var rolled: [ClockEvent] = []
        let runtimes = engine.runtimes
        for (index, stub) in engine.stubs.enumerated() {
            guard let rule = stub.rateLimit else { continue }
            let state = runtimes[index].rateLimit.peek(rule, now: startNanoseconds)
            guard state.remaining < rule.limit, state.reset > 0, state.reset <= seconds else { continue }
            rolled.append(ClockEvent(kind: .rateLimitWindow, stubID: stub.id, at: start + state.reset))
        }
        let fired = clock.advance(byNanoseconds: UInt64((seconds * 1_000_000_000).rounded()))
        guard !rolled.isEmpty else { return fired }
        // Stable merge: at equal times a held item (already in order) comes before a window.
        return
            (fired.enumerated().map { (0, $0.offset, $0.element) }
            + rolled.enumerated().map { (1, $0.offset, $0.element) })
            .sorted { ($0.2.at, $0.0, $0.1) < ($1.2.at, $1.0, $1.1) }
            .map(\.2)
    }

    /// The clock as the admin API shows it.
    static func describe(_ clock: WorldClock) -> [JSONMember] {
        let now = clock.nowSeconds
        let wall = clock.source.now.timeIntervalSince1970
        return [
            JSONMember("mode", .string(clock.mode.rawValue)),
            JSONMember("now", .string(TimeFormatting.iso8601Milliseconds(now))),
            JSONMember("wallTime", .string(TimeFormatting.iso8601Milliseconds(wall))),
            JSONMember("offsetMs", .int(Int(((now - wall) * 1000).rounded()))),
            JSONMember("held", .int(clock.schedule.count)),
        ]
    }

    static func encode(_ event: ClockEvent) -> JSONValue {
        var members = [
            JSONMember("kind", .string(event.kind.rawValue)),
            JSONMember("at", .string(TimeFormatting.iso8601Milliseconds(event.at))),
        ]
        if let stub = event.stubID { members.append(JSONMember("stub", .string(stub))) }
        if let request = event.request { members.append(JSONMember("request", .string(request))) }
        return .object(members)
    }

    // MARK: - The body

    enum Command: Equatable {
        case freeze(at: Double?)
        case advance(seconds: Double)
        case set(at: Double)
        case real
    }

    static let example =
        #"{"freeze": "2030-01-01T00:00:00Z"}, {"advance": "PT30S"}, {"set": "2030-01-01T01:00:00Z"} or {"real": true}"#

    /// Decodes a POST body; the failure is the 400's message.
    static func decode(_ body: [UInt8], now: Double) -> Result<Command, Failure> {
        guard let value = JSONValue.parse(body), case .object(let members) = value else {
            return .failure(Failure("body must be a JSON object: one of \(example)"))
        }
        guard members.count == 1, let member = members.first else {
            return .failure(
                Failure(
                    "body must have exactly one key of `freeze`, `advance`, `set` or `real`; found \(members.count): one of \(example)"
                ))
        }
        guard keys.contains(member.key) else {
            let hint = EditDistance.closest(to: member.key, among: keys).map { "; did you mean `\($0)`?" } ?? ""
            return .failure(Failure("unknown clock command `\(member.key)`\(hint); use one of \(example)"))
        }
        switch member.key {
        case "freeze":
            if case .null = member.value { return .success(.freeze(at: nil)) }
            if case .bool(true) = member.value { return .success(.freeze(at: nil)) }
            guard let at = instant(member.value) else {
                return .failure(
                    Failure(
                        "`freeze` must be an instant like \"2030-01-01T00:00:00Z\" (UTC, ending in Z), or null for now; found \(member.value.jsonText)"
                    ))
            }
            return .success(.freeze(at: at))
        case "advance":
            guard let seconds = duration(member.value) else {
                return .failure(
                    Failure(
                        "`advance` must be an ISO-8601 duration like \"PT30S\" or \"PT1H30M\", or a number of milliseconds ≥ 0; found \(member.value.jsonText)"
                    ))
            }
            return .success(.advance(seconds: seconds))
        case "set":
            guard let at = instant(member.value) else {
                return .failure(
                    Failure(
                        "`set` must be an instant like \"2030-01-01T00:00:00Z\" (UTC, ending in Z); found \(member.value.jsonText)"
                    ))
            }
            guard at >= now - 0.0005 else {
                return .failure(
                    Failure(
                        "`set` cannot move the clock backwards: \(TimeFormatting.iso8601Milliseconds(at)) is before the clock's \(TimeFormatting.iso8601Milliseconds(now)); use `freeze` to stop it at an earlier instant"
                    ))
            }
            return .success(.set(at: at))
        default:
            guard case .bool(true) = member.value else {
                return .failure(Failure("`real` must be true (back to real time); found \(member.value.jsonText)"))
            }
            return .success(.real)
        }
    }

    /// Seconds since 1970 for an instant in the journal's format.
    static func instant(_ value: JSONValue) -> Double? {
        guard case .string(let text) = value, let milliseconds = TimeFormatting.parseISO8601Milliseconds(text) else {
            return nil
        }
        return milliseconds / 1000
    }

    /// Seconds for an ISO-8601 duration string or a number of milliseconds (≥ 0).
    static func duration(_ value: JSONValue) -> Double? {
        switch value {
        case .string(let text): return TimeFormatting.parseISO8601Duration(text)
        case .number:
            guard let milliseconds = value.doubleValue, milliseconds >= 0, milliseconds.isFinite else { return nil }
            return milliseconds / 1000
        default: return nil
        }
    }

    /// A 400's message.
    struct Failure: Error, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
