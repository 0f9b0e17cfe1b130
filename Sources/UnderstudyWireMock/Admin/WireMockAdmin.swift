#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyHTTP
import UnderstudyJSON

/// WireMock's admin API, served beside Understudy's own for WireMock's clients (docs/wiremock.md):
/// an adapter that registers its routes (``routes``, declared in `WireMockAdmin+Routes.swift`)
/// with its hooks in ``adapter``, and adds WireMock's names to the native answers that share a path with it. Mappings are stubs decoded from WireMock JSON; those created
/// here are marked with the file ``adminFile`` so a global reset removes them, as WireMock's does.
enum WireMockAdmin {
    /// The `file` of mappings created through `POST /__admin/mappings`.
    static let adminFile = "<wiremock-admin>"

    /// The adapter ``WireMockSupport/install()`` adds to the daemon's table (`AdminRoutes.standard`):
    /// WireMock's routes and its hooks on the native answers.
    static let adapter = AdminAdapter(
        name: "wiremock",
        routes: routes,
        journalEntryFields: serveEventFields,
        // WireMock's names for the same facts, so its clients read the native answer too.
        scenarioFields: { name, states in
            [JSONMember("id", .string(name)), JSONMember("possibleStates", .array(states.map(JSONValue.string)))]
        },
        onReset: reset)

    /// `GET /__admin/`: WireMock clients' liveness probe.
    static func status(_ call: AdminCall) -> HTTPResponse {
        AdminResponse.value(
            .object([JSONMember("status", .string("ok")), JSONMember("server", .string("understudy"))]))
    }

    /// `POST /__admin/requests/reset`: empties the journal.
    static func clearRequests(_ call: AdminCall) -> HTTPResponse {
        AdminResponse.value(.object([JSONMember("cleared", .int(call.adminEngine.clearJournal()))]))
    }

    /// `GET /__admin/requests/unmatched`: the journal's unmatched requests.
    static func unmatchedRequests(_ call: AdminCall) -> HTTPResponse {
        RequestsAdmin.render(call, where: { !$0.matched })
    }

    /// `POST /__admin/scenarios/reset`: every scenario back to `Started`.
    static func resetScenarios(_ call: AdminCall) -> HTTPResponse {
        call.adminEngine.resetScenarios()
        return AdminResponse.value(.object([]))
    }

    static func deleteMappings(_ engine: AdminEngine) -> HTTPResponse {
        engine.retainStubs { WireMockMapping.of($0) == nil }
        return AdminResponse.value(.object([]))
    }

    /// WireMock: back to the mappings on disk. Here: re-read the stub paths.
    static func resetMappings(_ call: AdminCall) -> HTTPResponse {
        switch call.reload() {
        case .success: return AdminResponse.value(.object([]))
        case .failure(let failure): return AdminResponse.loadFailure(failure)
        }
    }

    static func getMapping(_ call: AdminCall) -> HTTPResponse {
        guard let stub = call.adminEngine.stubs.first(where: { $0.id == call.parameter }),
            let source = WireMockMapping.of(stub)?.json
        else {
            return AdminResponse.error(404, "no WireMock mapping with id `\(call.parameter)`")
        }
        return AdminResponse.value(source)
    }

    static func putMapping(_ call: AdminCall) -> HTTPResponse {
        guard call.adminEngine.stubs.contains(where: { $0.id == call.parameter && WireMockMapping.of($0) != nil })
        else {
            return AdminResponse.error(404, "no WireMock mapping with id `\(call.parameter)`")
        }
        return saveMapping(call.adminEngine, call.request.body, id: call.parameter)
    }

    static func deleteMapping(_ call: AdminCall) -> HTTPResponse {
        guard call.adminEngine.stubs.contains(where: { $0.id == call.parameter && WireMockMapping.of($0) != nil })
        else {
            return AdminResponse.error(404, "no WireMock mapping with id `\(call.parameter)`")
        }
        return call.adminEngine.deleteStub(call.parameter)
    }

    /// WireMock's part of `POST /__admin/reset`: the mappings created through its admin API go,
    /// and, when mapping files are served, the stub paths are read again, as WireMock's reset
    /// goes back to the mappings on disk (a file mapping deleted or edited through the admin API
    /// comes back as the file has it). Stubs posted to `/__admin/stubs` are kept. A root that no
    /// longer loads leaves the stubs as they are, as `POST /__admin/reload` does.
    static func reset(_ call: AdminCall) {
        let engine = call.adminEngine
        let servesMappingFiles = engine.stubs.contains { $0.file != adminFile && WireMockMapping.of($0) != nil }
        removeAdminMappings(engine)
        guard servesMappingFiles else { return }
        let posted = engine.stubs.filter { $0.file == postedStubsFile }
        guard case .success = call.reload() else { return }
        for stub in posted { engine.save(stub) }
    }

    /// The `file` of stubs posted to the native `POST /__admin/stubs`.
    static let postedStubsFile = "<admin>"

    /// Removes the mappings created through the WireMock admin API (part of `POST /__admin/reset`).
    static func removeAdminMappings(_ engine: AdminEngine) {
        engine.retainStubs { $0.file != adminFile }
    }

    static func listMappings(_ engine: AdminEngine) -> HTTPResponse {
        let mappings = engine.stubs.compactMap { WireMockMapping.of($0)?.json }.reversed()
        return AdminResponse.value(
            .object([
                JSONMember("mappings", .array(Array(mappings))),
                JSONMember("meta", .object([JSONMember("total", .int(mappings.count))])),
            ]))
    }

    /// Creates (`id` nil) or replaces a mapping; WireMock answers with the mapping, id included.
    static func saveMapping(_ engine: AdminEngine, _ body: [UInt8], id fixedID: String?) -> HTTPResponse {
        let node: JSONNode
        do {
            node = try JSONParser.parse(body)
        } catch {
            return AdminResponse.error(
                400, "body is not JSON (line \(error.position.line), column \(error.position.column)): \(error.message)"
            )
        }
        var decoder = StubDecoder(file: adminFile, bodyFiles: nil)
        decoder.lastDuplicateKeyWins = true  // as WireMock's JSON reader (a posted mapping gets no warnings back)
        let decoded = decoder.decodeWireMockMapping(node, .root, generatedID: fixedID ?? UUID().uuidString.lowercased())
        guard var stub = decoded?.stub, decoder.errors.isEmpty else {
            return AdminResponse.loadFailure(StubLoadFailure(errors: decoder.errors))
        }
        if let fixedID { stub.id = fixedID }
        stub.idGenerated = false
        let mapping = WireMockMapping.of(stub)
        if let mapping, case .object(var members) = mapping.json {
            members.removeAll { $0.key == "id" || $0.key == "uuid" }
            members.insert(JSONMember("id", .string(stub.id)), at: 0)
            members.append(JSONMember("uuid", .string(stub.id)))
            stub.annotation = WireMockMapping(json: .object(members), metadata: mapping.metadata)
        }
        engine.save(stub)
        return AdminResponse.value(WireMockMapping.of(stub)?.json ?? .null, status: fixedID == nil ? 201 : 200)
    }

    /// WireMock's request fields for a journal entry: `url`, `absoluteUrl`, `clientIp`,
    /// `loggedDateString`, `queryParams`, `cookies`, `bodyAsBase64`, `browserProxyRequest`.
    static func requestFields(_ entry: JournalEntry) -> [JSONMember] {
        let request = entry.request
        let url = request.query.map { request.path + "?" + $0 } ?? request.path
        let host = request.headers.values(for: "Host").first ?? "127.0.0.1"
        var query: [JSONMember] = []
        for (name, value) in PercentDecoding.queryPairs(request.query) {
            if let at = query.firstIndex(where: { $0.key == name }), case .object(var inner) = query[at].value,
                case .array(var values)? = inner.first?.value
            {
                values.append(.string(value))
                inner[0].value = .array(values)
                query[at].value = .object(inner)
            } else {
                query.append(JSONMember(name, .object([JSONMember("values", .array([.string(value)]))])))
            }
        }
        var time = ""
        if let start = entry.line.firstRange(of: Array("\"time\":\"".utf8))?.upperBound,
            let end = entry.line[start...].firstIndex(of: UInt8(ascii: "\""))
        {
            time = String(decoding: entry.line[start..<end], as: UTF8.self)
        }
        return [
            JSONMember("id", .string(String(entry.seq))),
            JSONMember("url", .string(url)),
            JSONMember("absoluteUrl", .string("http://\(host)\(url)")),
            JSONMember("clientIp", .string("127.0.0.1")),
            JSONMember("loggedDateString", .string(time)),
            JSONMember("queryParams", .object(query)),
            JSONMember("bodyAsBase64", .string(Data(request.body).base64EncodedString())),
            JSONMember("browserProxyRequest", .bool(false)),
            JSONMember("wasMatched", .bool(entry.matched)),
        ]
    }
}

extension WireMockAdmin {
    /// WireMock's fields for a journal entry, as the bytes of a JSON object to splice into the
    /// native entry: its `LoggedRequest` fields at the top (what `find` and `unmatched` clients
    /// read) and its serve event's `request` and `responseDefinition` (what `GET
    /// /__admin/requests` clients read). Native fields WireMock shares (`method`, `body`) are
    /// already there.
    static func serveEventFields(_ entry: JournalEntry) -> [UInt8] {
        let fields = requestFields(entry)
        var requestMembers: [JSONMember] = [
            JSONMember("method", .string(entry.request.method)),
            JSONMember("headers", .object(entry.request.headers.fields.map { JSONMember($0.name, .string($0.value)) })),
            JSONMember("body", .string(String(decoding: entry.request.body, as: UTF8.self))),
        ]
        requestMembers += fields.filter { $0.key != "id" && $0.key != "wasMatched" }
        return JSONValue.object(
            fields + [
                JSONMember("request", .object(requestMembers)),
                JSONMember(
                    "responseDefinition", .object([JSONMember("status", entry.status.map { .int($0) } ?? .null)])),
            ]
        ).jsonBytes
    }
}
