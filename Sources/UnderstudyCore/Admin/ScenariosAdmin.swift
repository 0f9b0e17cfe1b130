import UnderstudyHTTP

/// `GET /__admin/scenarios` and `PUT /__admin/scenarios/{name}`.
package enum ScenariosAdmin {
    /// Each scenario's name, state and known states, with the members adapters add
    /// (``AdminAdapter/scenarioFields``).
    static func list(_ call: AdminCall) -> HTTPResponse {
        let scenarios = call.engine.scenarios
        let decorations = call.routes.adapters.compactMap(\.scenarioFields)
        let items: [JSONValue] = scenarios.names.map { name in
            let states = scenarios.knownStates[name] ?? []
            return .object(
                [
                    JSONMember("name", .string(name)),
                    JSONMember("state", .string(scenarios.state(of: name))),
                    JSONMember("states", .array(states.map(JSONValue.string))),
                ] + decorations.flatMap { $0(name, states) })
        }
        return AdminResponse.value(.object([JSONMember("scenarios", .array(items))]))
    }

    package static func set(_ call: AdminCall) -> HTTPResponse {
        let name = call.parameter, body = call.request.body
        let scenarios = call.engine.scenarios
        guard let states = scenarios.knownStates[name] else {
            // An empty list after "scenarios:" reads like a truncated message: say there are none.
            let known =
                scenarios.names.isEmpty
                ? "there are no scenarios"
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
            return AdminResponse.error(
                400, "scenario `\(name)` has no state `\(state)`; states: \(states.joined(separator: ", "))")
        }
        call.engine.setScenario(name, to: state)
        return AdminResponse.value(.object([JSONMember("name", .string(name)), JSONMember("state", .string(state))]))
    }
}
