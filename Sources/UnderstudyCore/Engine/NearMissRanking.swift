/// The closest stubs to a request none matched, and why each missed: the body of the unmatched
/// response and of `GET /__admin/requests/{seq}/near-misses`. Its own type beside the engine: it
/// runs only on a miss (or when the admin API asks), never for a matched request.
struct NearMissRanking {
    /// How many stubs a report names.
    static let count = 3
    /// Weights of the stub-level conditions beside the request's (see
    /// ``RequestPattern/DistanceWeight``): a stub that matches the request but waits for another
    /// scenario state, or is exhausted, is about as close as a one-character path typo.
    static let scenarioStateWeight = 1.0
    static let exhaustedWeight = 1.0

    /// The engine's stubs (boxed, see ``StubBox``), their runtimes and the scenario states, as they are now.
    let boxes: [StubBox]
    let runtimes: [StubRuntime]
    let scenarios: ScenarioBook

    /// What was asked, and the closest stubs with why each missed.
    func report(_ context: MatchContext) -> String {
        var target = context.request.path
        if let query = context.request.query { target += "?" + query }
        var text = "No stub matched \(context.request.method) \(target)\n"
        guard !boxes.isEmpty else { return text + "\nNo stubs are loaded.\n" }
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
        /// The weighted distance (0 would be a match); lower is closer.
        var distance: Double
    }

    /// The closest stubs, best first; ties keep load order.
    ///
    /// Every stub is measured against the worst of the closest found so far, and dropped as soon
    /// as it cannot beat it, so most stubs cost a comparison or two however many are loaded;
    /// only the few shown are explained in words.
    func nearMisses(_ context: MatchContext) -> [NearMiss] {
        var closest: [(distance: Double, index: Int)] = []
        closest.reserveCapacity(Self.count + 1)
        let segment = NearMissName.segment(of: context.path)
        for index in boxes.indices {
            // Strictly below the worst kept: on a tie the earlier stub stays.
            let budget = closest.count < Self.count ? Double.infinity : closest[closest.count - 1].distance
            guard let distance = distance(of: index, from: context, segment: segment, budget: budget) else { continue }
            let position = closest.firstIndex { $0.distance > distance } ?? closest.count
            closest.insert((distance, index), at: position)
            if closest.count > Self.count { closest.removeLast() }
        }
        return closest.map { entry in
            let stub = boxes[entry.index].stub
            return NearMiss(
                stubID: stub.id, file: stub.file, reasons: explain(entry.index, context), distance: entry.distance)
        }
    }

    /// The stub's weighted distance from the request, or `nil` when it is not below `budget`.
    func distance(of index: Int, from context: MatchContext, segment: String?, budget: Double) -> Double? {
        // Through the box: copying the `Stub` out would retain each of its fields, for every stub.
        let box = boxes[index]
        var base = 0.0
        if let scenario = box.stub.scenario, let wanted = box.stub.whenState, scenarios.state(of: scenario) != wanted {
            base += Self.scenarioStateWeight
        }
        if runtimes[index].exhausted { base += Self.exhaustedWeight }
        guard base < budget else { return nil }
        let name = NearMissName(segment: segment, file: box.stub.file, id: box.stub.id)
        return box.stub.request.distance(from: context, base: base, budget: budget, name: name)
    }

    /// Why the stub missed, one phrase per failed condition.
    private func explain(_ index: Int, _ context: MatchContext) -> [String] {
        let stub = boxes[index].stub
        var reasons = stub.request.misses(context, depth: .explain).map(\.text)
        if let scenario = stub.scenario, let wanted = stub.whenState {
            let state = scenarios.state(of: scenario)
            if state != wanted { reasons.append("scenario \(scenario) is in state \(state), stub wants \(wanted)") }
        }
        if runtimes[index].exhausted {
            reasons.append(
                "stub is exhausted: it served all \(stub.responses.count) response(s) and has afterLast \"exhaust\"")
        }
        return reasons
    }
}

extension StubEngine {
    /// The near-miss ranking over the stubs and states as they are now.
    var nearMissRanking: NearMissRanking {
        NearMissRanking(boxes: boxes, runtimes: runtimes, scenarios: scenarios)
    }
}
