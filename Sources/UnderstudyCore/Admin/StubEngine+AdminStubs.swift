/// `GET|POST /__admin/stubs` and `DELETE /__admin/stubs/{id}`.
extension StubEngine {
    func listStubs() -> HTTPResponse {
        let items: [JSONValue] = stubs.enumerated().map { index, stub in
            let runtime = runtimes[index]
            return .object([
                JSONMember("id", .string(stub.id)),
                JSONMember("file", .string(stub.file)),
                JSONMember("description", .optional(stub.description)),
                JSONMember("request", stub.requestJSON ?? .null),
                JSONMember("responses", .int(stub.responses.count)),
                // Indexes of responses rendered per request, and how each paced one is streamed.
                JSONMember("templated", .array(stub.responses.indices.filter { stub.responses[$0].template != nil }.map { .int($0) })),
                JSONMember("streams", .object(stub.responses.indices.compactMap { index in
                    stub.responses[index].streaming.map { JSONMember(String(index), .string($0.kind.rawValue)) }
                })),
                JSONMember("afterLast", .string(stub.afterLast.rawValue)),
                JSONMember("nextResponseIndex", runtime.exhausted ? .null : .int(runtime.position)),
                JSONMember("timesServed", .int(runtime.timesServed)),
                JSONMember("exhausted", .bool(runtime.exhausted)),
                JSONMember("scenario", .optional(stub.scenario)),
                JSONMember("whenState", .optional(stub.whenState)),
                JSONMember("setState", .optional(stub.setState)),
                JSONMember("rateLimit", stub.rateLimit.map { rule in
                    .object([
                        JSONMember("limit", .int(rule.limit)),
                        JSONMember("window", .number(Self.formatSeconds(rule.window))),
                        JSONMember("retryAfter", .string(rule.retryAfter.rawValue)),
                        JSONMember("algorithm", .string(rule.algorithm.rawValue)),
                        JSONMember("headers", .string(rule.headers.rawValue)),
                        JSONMember("status", .int(rule.status)),
                        JSONMember("name", .string(rule.headerName)),
                    ])
                } ?? .null),
            ])
        }
        return AdminResponse.value(.object([JSONMember("stubs", .array(items))]))
    }

    /// Adds the posted stubs, replacing any with the same id in place; all or nothing.
    func addStubs(_ body: [UInt8]) -> HTTPResponse {
        let posted: StubSet
        do {
            posted = try StubLoader.parse(bytes: body, file: "<admin>", root: nil)
        } catch {
            return AdminResponse.loadFailure(error)
        }
        let (added, replaced) = add(posted)
        return AdminResponse.value(.object([
            JSONMember("added", .array(added.map(JSONValue.string))),
            JSONMember("replaced", .array(replaced.map(JSONValue.string))),
        ]), status: 201)
    }

    /// Adds validated stubs as `POST /__admin/stubs` does: an id already loaded is replaced in
    /// place (its sequence restarts), stubs without an id get `admin-N`. Returns the ids added
    /// and replaced.
    @discardableResult
    public func add(_ posted: StubSet) -> (added: [String], replaced: [String]) {
        var added: [String] = [], replaced: [String] = []
        var newStubs = stubs
        var newRuntimes = runtimes
        for var stub in posted.stubs {
            if stub.idGenerated {
                repeat {
                    adminStubCounter += 1
                    stub.id = "admin-\(adminStubCounter)"
                } while newStubs.contains { $0.id == stub.id }
            }
            if let existing = newStubs.firstIndex(where: { $0.id == stub.id }) {
                newStubs[existing] = stub
                newRuntimes[existing] = StubRuntime()
                replaced.append(stub.id)
            } else {
                newStubs.append(stub)
                newRuntimes.append(StubRuntime())
                added.append(stub.id)
            }
        }
        install(newStubs, runtimes: newRuntimes)
        return (added, replaced)
    }

    func deleteStub(_ id: String) -> HTTPResponse {
        guard let position = stubs.firstIndex(where: { $0.id == id }) else {
            return AdminResponse.error(404, "no stub with id `\(id)`")
        }
        var newStubs = stubs, newRuntimes = runtimes
        newStubs.remove(at: position)
        newRuntimes.remove(at: position)
        install(newStubs, runtimes: newRuntimes)
        return AdminResponse.value(.object([JSONMember("deleted", .string(id))]))
    }

    /// Swaps in an edited stub list, keeping the state of stubs and scenarios that remain.
    func install(_ newStubs: [Stub], runtimes newRuntimes: [StubRuntime]) {
        replaceStubs(StubSet(stubs: newStubs), keepingScenarios: true)
        runtimes = newRuntimes
    }
}
