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

    /// The closest stubs, best first; ties keep load order. Every stub is scored without building
    /// any text; only the few shown are explained.
    func nearMisses(_ context: MatchContext) -> [NearMiss] {
        var ranked: [(score: Int, index: Int)] = []
        ranked.reserveCapacity(stubs.count)
        for index in stubs.indices {
            let score = missReasons(index, context, depth: .score).reduce(0) { $0 + $1.score }
            ranked.append((score, index))
        }
        ranked.sort { ($0.score, $0.index) < ($1.score, $1.index) }
        return ranked.prefix(Self.nearMissCount).map { entry in
            let stub = stubs[entry.index]
            return NearMiss(stubID: stub.id, file: stub.file,
                            reasons: missReasons(entry.index, context, depth: .explain).map(\.text), score: entry.score)
        }
    }

    private func missReasons(_ index: Int, _ context: MatchContext, depth: RequestPattern.MissDepth) -> [MissReason] {
        var reasons = stubs[index].request.misses(context, depth: depth)
        let explaining = depth == .explain
        if let scenario = stubs[index].scenario, let wanted = stubs[index].whenState {
            let state = scenarios.state(of: scenario)
            if state != wanted {
                reasons.append(MissReason(score: 100, text: explaining ? "scenario \(scenario) is in state \(state), stub wants \(wanted)" : ""))
            }
        }
        if runtimes[index].exhausted {
            reasons.append(MissReason(score: 100, text: explaining
                ? "stub is exhausted: it served all \(stubs[index].responses.count) response(s) and has afterLast \"exhaust\"" : ""))
        }
        return reasons
    }
}
