import UnderstudyStubFormat

/// `delayMs` as a distribution (`{"uniform": [min, max]}` or `{"lognormal": {"median", "sigma", "max"}}`)
/// and `statusMessage`.
extension StubDecoder {
    static let lognormalKeys = StubFormat.Object.lognormal.keys

    mutating func decodeDelayDistribution(_ node: JSONNode, _ path: JSONPath) -> DelayDistribution? {
        let keys = members(of: node, path, known: StubFormat.Object.delayDistribution.keys)
        guard keys.count == 1, let (key, member) = keys.first else {
            if keys.count > 1 {
                fail(node.position, path, "give one of `uniform` and `lognormal`")
            } else if node.members?.isEmpty ?? true {
                fail(
                    node.position, path,
                    "expected {\"uniform\": [min, max]} or {\"lognormal\": {\"median\": m, \"sigma\": s}}")
            }
            return nil
        }
        let memberPath = path.member(key)
        if key == "uniform" {
            guard let bounds = member.value.elements, bounds.count == 2 else {
                typeMismatch(member.value, memberPath, expected: "an array [min, max] of milliseconds")
                return nil
            }
            guard let low = delayBound(bounds[0], memberPath.element(0)),
                let high = delayBound(bounds[1], memberPath.element(1))
            else { return nil }
            guard low <= high else {
                fail(
                    bounds[0].position, memberPath,
                    "`uniform` needs min ≤ max, found [\(JSONValue(low).jsonText), \(JSONValue(high).jsonText)]")
                return nil
            }
            return .uniform(min: low, max: high)
        }
        guard member.value.members != nil else {
            typeMismatch(
                member.value, memberPath, expected: "an object like {\"median\": 80, \"sigma\": 0.4, \"max\": 2000}")
            return nil
        }
        let inner = members(of: member.value, memberPath, known: Self.lognormalKeys)
        guard let medianNode = inner["median"], let sigmaNode = inner["sigma"] else {
            fail(member.value.position, memberPath, "`lognormal` needs `median` (ms) and `sigma`")
            return nil
        }
        guard let median = delayBound(medianNode.value, memberPath.member("median")),
            let sigma = number(sigmaNode.value, memberPath.member("sigma"))
        else { return nil }
        guard sigma >= 0, sigma <= 10 else {
            fail(sigmaNode.value.position, memberPath.member("sigma"), "`sigma` must be from 0 to 10")
            return nil
        }
        var cap: Double?
        if let maxNode = inner["max"] {
            guard let value = delayBound(maxNode.value, memberPath.member("max")) else { return nil }
            cap = value
        }
        return .lognormal(median: median, sigma: sigma, max: cap ?? Self.maximumDelayMs)
    }

    /// A delay in milliseconds from 0 to one day.
    package mutating func delayBound(_ node: JSONNode, _ path: JSONPath) -> Double? {
        guard let value = number(node, path) else { return nil }
        guard value >= 0, value <= Self.maximumDelayMs else {
            fail(node.position, path, "a delay must be from 0 to \(Int(Self.maximumDelayMs)) ms (one day)")
            return nil
        }
        return value
    }

    /// A reason phrase: text without line breaks or NUL.
    package mutating func reasonPhrase(_ node: JSONNode, _ path: JSONPath) -> String? {
        guard let text = string(node, path) else { return nil }
        guard !text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else {
            fail(node.position, path, "a status message may not contain line breaks or NUL")
            return nil
        }
        return text
    }
}
