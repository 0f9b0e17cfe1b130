#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A random delay, drawn for each response from the engine's seeded generator.
public enum DelayDistribution: Sendable, Equatable {
    /// Uniform between `min` and `max` milliseconds (inclusive).
    case uniform(min: Double, max: Double)
    /// Log-normal with the given median (ms) and sigma; capped at `max` ms when given.
    case lognormal(median: Double, sigma: Double, max: Double?)

    /// A sample in milliseconds.
    func sample(_ generator: inout SeededGenerator) -> Double {
        switch self {
        case .uniform(let low, let high):
            return high <= low ? low : low + generator.nextUnit() * (high - low)
        case .lognormal(let median, let sigma, let cap):
            // Box–Muller: one standard normal from two uniforms (u1 in (0, 1], so log is finite).
            let u1 = 1 - generator.nextUnit(), u2 = generator.nextUnit()
            let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            let value = median * exp(sigma * normal)
            return cap.map { min(value, $0) } ?? value
        }
    }

    /// The distribution as a stub file writes it (the object form of `delayMs`).
    public var jsonValue: JSONValue {
        switch self {
        case .uniform(let low, let high):
            return .object([JSONMember("uniform", .array([.number(Self.format(low)), .number(Self.format(high))]))])
        case .lognormal(let median, let sigma, let cap):
            var members = [JSONMember("median", .number(Self.format(median))), JSONMember("sigma", .number(Self.format(sigma)))]
            if let cap { members.append(JSONMember("max", .number(Self.format(cap)))) }
            return .object([JSONMember("lognormal", .object(members))])
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
