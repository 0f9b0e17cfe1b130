/// `GET /__admin/scenarios` and `PUT /__admin/scenarios/{name}`.
extension StubEngine {
    func listScenarios() -> HTTPResponse {
        let items: [JSONValue] = scenarios.names.map { name in
            .object([
                JSONMember("name", .string(name)),
                JSONMember("state", .string(scenarios.state(of: name))),
                JSONMember("states", .array((scenarios.knownStates[name] ?? []).map(JSONValue.string))),
                // WireMock's names for the same facts, so its clients read this answer too.
                JSONMember("id", .string(name)),
                JSONMember("possibleStates", .array((scenarios.knownStates[name] ?? []).map(JSONValue.string))),
            ])
        }
        return AdminResponse.value(.object([JSONMember("scenarios", .array(items))]))
    }

    func setScenario(_ name: String, _ body: [UInt8]) -> HTTPResponse {
        guard let states = scenarios.knownStates[name] else {
            // An empty list after "scenarios:" reads like a truncated message: say there are none.
            let known = scenarios.names.isEmpty ? "there are no scenarios"
                : "scenarios: " + scenarios.names.joined(separator: ", ")
            return AdminResponse.error(404, "no scenario named `\(name)`; \(known)")
        }
        guard let value = JSONValue.parse(body), case .object(let members) = value else {
            return AdminResponse.error(400, "body must be a JSON object like {\"state\":\"Started\"}")
        }
        if let unknown = members.first(where: { $0.key != "state" }) {
            return AdminResponse.error(400, "unknown key `\(unknown.key)`; the body is {\"state\":\"...\"}")
        }
        guard let state = value["state"]?.stringValue else {
            return AdminResponse.error(400, "`state` must be a string, e.g. {\"state\":\"Started\"}")
        }
        guard states.contains(state) else {
            return AdminResponse.error(400, "scenario `\(name)` has no state `\(state)`; states: \(states.joined(separator: ", "))")
        }
        scenarios.set(name, to: state)
        return AdminResponse.value(.object([JSONMember("name", .string(name)), JSONMember("state", .string(state))]))
    }
}
