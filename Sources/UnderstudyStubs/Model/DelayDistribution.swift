#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import UnderstudyStubFormat

/// A random delay, drawn for each response from the engine's seeded generator: the stub format's
/// own `delayMs` distribution (`StubResponse.DelayDistribution` of UnderstudyStubFormat, whose
/// `json` writes it back), so a distribution is defined once.
public typealias DelayDistribution = UnderstudyStubFormat.StubResponse.DelayDistribution

extension DelayDistribution {
    /// A sample in milliseconds.
    package func sample(_ generator: inout SeededGenerator) -> Double {
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
}
