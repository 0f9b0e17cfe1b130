import UnderstudyHTTP
import UnderstudyStubFormat

/// `GET|POST /__admin/stubs` and `DELETE /__admin/stubs/{id}`.
enum StubsAdmin {
    static func list(_ call: AdminCall) -> HTTPResponse {
        let engine = call.engine
        let runtimes = engine.runtimes
        let items: [JSONValue] = engine.stubs.enumerated().map { index, stub in
            let runtime = runtimes[index]
            return .object([
                JSONMember(.id, .string(stub.id)),
                JSONMember("file", .string(stub.file)),
                JSONMember(.description, .optional(stub.description)),
                JSONMember(.request, stub.requestJSON ?? .null),
                JSONMember(.responses, .int(stub.responses.count)),
                // Indexes of responses rendered per request, and how each paced one is streamed.
                JSONMember(
                    "templated",
                    .array(stub.responses.indices.filter { stub.responses[$0].template != nil }.map { .int($0) })),
                JSONMember(
                    "streams",
                    .object(
                        stub.responses.indices.compactMap { index in
                            stub.responses[index].streaming.map { JSONMember(String(index), .string($0.kind.rawValue)) }
                        })),
                JSONMember(.afterLast, .string(stub.afterLast.rawValue)),
                JSONMember("nextResponseIndex", runtime.exhausted ? .null : .int(runtime.position)),
                JSONMember("timesServed", .int(runtime.timesServed)),
                JSONMember("exhausted", .bool(runtime.exhausted)),
                JSONMember(.scenario, .optional(stub.scenario)),
                JSONMember(.whenState, .optional(stub.whenState)),
                JSONMember(.setState, .optional(stub.setState)),
                JSONMember(
                    "rateLimit",
                    stub.rateLimit.map { rule in
                        .object([
                            JSONMember(.limit, .int(rule.limit)),
                            JSONMember(.window, .number(StubEngine.formatSeconds(rule.window))),
                            JSONMember(.retryAfter, .string(rule.retryAfter.rawValue)),
                            JSONMember(.algorithm, .string(rule.algorithm.rawValue)),
                            JSONMember(.headers, .string(rule.headers.rawValue)),
                            JSONMember(.status, .int(rule.status)),
                            JSONMember(.name, .string(rule.headerName)),
                        ])
                    } ?? .null),
                JSONMember(
                    .idempotency,
                    stub.idempotency.map { rule in
                        .object([
                            JSONMember(.header, .string(rule.header)),
                            JSONMember(.required, .bool(rule.required)),
                            JSONMember(.ttl, .number(StubEngine.formatSeconds(rule.ttl))),
                            JSONMember(.mismatchStatus, .int(rule.mismatchStatus)),
                            JSONMember("keys", .int(runtime.idempotency?.count ?? 0)),
                        ])
                    } ?? .null),
            ])
        }
        return AdminResponse.value(.object([JSONMember(.stubs, .array(items))]))
    }

    /// Adds the posted stubs, replacing any with the same id in place; all or nothing.
    static func add(_ call: AdminCall) -> HTTPResponse {
        let body = call.request.body
        let posted: StubSet
        do {
            posted = try StubLoader.parse(bytes: body, file: "<admin>", root: nil)
        } catch {
            return AdminResponse.loadFailure(error)
        }
        let (added, replaced) = call.engine.add(posted)
        return AdminResponse.value(
            .object([
                JSONMember("added", .array(added.map(JSONValue.string))),
                JSONMember("replaced", .array(replaced.map(JSONValue.string))),
            ]), status: 201)
    }

    static func delete(_ call: AdminCall) -> HTTPResponse {
        delete(call.parameter, from: call.engine)
    }

    /// Removes stub `id` (404 when there is none), keeping every other stub's state.
    static func delete(_ id: String, from engine: any EngineControl) -> HTTPResponse {
        let stubs = engine.stubs
        guard let position = stubs.firstIndex(where: { $0.id == id }) else {
            return AdminResponse.error(404, "no stub with id `\(id)`")
        }
        var newStubs = stubs, newRuntimes = engine.runtimes
        newStubs.remove(at: position)
        newRuntimes.remove(at: position)
        engine.install(newStubs, runtimes: newRuntimes)
        return AdminResponse.value(.object([JSONMember("deleted", .string(id))]))
    }
}
