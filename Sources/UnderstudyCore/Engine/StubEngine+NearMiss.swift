/// The body of the unmatched response: what was asked, and the closest stubs with why each missed.
extension StubEngine {
    static let nearMissCount = 3

    func nearMissReport(_ context: MatchContext) -> String {
        var target = context.request.path
        if let query = context.request.query { target += "?" + query }
        var text = "No stub matched \(context.request.method) \(target)\n"
        guard !stubs.isEmpty else { return text + "\nNo stubs are loaded.\n" }
        let ranked = nearMisses(context)
        text += "\nClosest stubs:\n"
        for miss in ranked {
            text += "- \(miss.stubID) (\(miss.file))\n"
            for reason in miss.reasons { text += "    \(reason)\n" }
        }
        return text
    }

    struct NearMiss {
        var stubID: String
        var file: String
        var reasons: [String]
        var score: Int
    }

    /// The closest stubs, best first; ties keep load order.
    func nearMisses(_ context: MatchContext) -> [NearMiss] {
        var misses: [NearMiss] = []
        for (index, stub) in stubs.enumerated() {
            var reasons = stub.request.misses(context, stopAtFirst: false)
            if let scenario = stub.scenario, let wanted = stub.whenState {
                let state = scenarios.state(of: scenario)
                if state != wanted {
                    reasons.append(MissReason(score: 100, text: "scenario \(scenario) is in state \(state), stub wants \(wanted)"))
                }
            }
            if runtimes[index].exhausted {
                reasons.append(MissReason(score: 100, text: "stub is exhausted: it served all \(stub.responses.count) response(s) and has afterLast \"exhaust\""))
            }
            let score = reasons.reduce(0) { $0 + $1.score }
            misses.append(NearMiss(stubID: stub.id, file: stub.file, reasons: reasons.map(\.text), score: score))
        }
        // Stable: equal scores stay in load order.
        let sorted = misses.enumerated().sorted { ($0.element.score, $0.offset) < ($1.element.score, $1.offset) }.map(\.element)
        return Array(sorted.prefix(Self.nearMissCount))
    }
}
