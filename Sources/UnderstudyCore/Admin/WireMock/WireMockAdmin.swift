#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The admin endpoints WireMock clients call, beside Understudy's own (README: "Coming from
/// WireMock"). Mappings are stubs decoded from WireMock JSON; those created here are marked with
/// the file ``wireMockAdminFile`` so a global reset removes them, as WireMock's does.
extension StubEngine {
    /// The `file` of mappings created through `POST /__admin/mappings`.
    public static let wireMockAdminFile = "<wiremock-admin>"

    /// Answers a WireMock-only endpoint, or nil when the path is not one.
    func wireMockAdmin(_ method: String, _ segments: [String], _ request: HTTPRequest,
                       reload: () -> Result<Int, StubLoadFailure>) -> HTTPResponse? {
        switch segments {
        case []:
            guard method == "GET" else { return AdminResponse.methodNotAllowed(method, allowed: ["GET"]) }
            return AdminResponse.value(.object([JSONMember("status", .string("ok")), JSONMember("server", .string("understudy"))]))
        case ["mappings"]:
            switch method {
            case "GET": return listMappings()
            case "POST": return saveMapping(request.body, id: nil)
            case "DELETE":
                install(stubs.indices.filter { stubs[$0].sourceJSON == nil }.map { stubs[$0] },
                        runtimes: stubs.indices.filter { stubs[$0].sourceJSON == nil }.map { runtimes[$0] })
                return AdminResponse.value(.object([]))
            default: return AdminResponse.methodNotAllowed(method, allowed: ["GET", "POST", "DELETE"])
            }
        case ["mappings", "reset"]:
            guard method == "POST" else { return AdminResponse.methodNotAllowed(method, allowed: ["POST"]) }
            // WireMock: back to the mappings on disk. Here: re-read the stub paths.
            switch reload() {
            case .success: return AdminResponse.value(.object([]))
            case .failure(let failure): return AdminResponse.loadFailure(failure)
            }
        case _ where segments.count == 2 && segments[0] == "mappings":
            let id = segments[1]
            switch method {
            case "GET":
                guard let stub = stubs.first(where: { $0.id == id }), let source = stub.sourceJSON else {
                    return AdminResponse.error(404, "no WireMock mapping with id `\(id)`")
                }
                return AdminResponse.value(source)
            case "PUT":
                guard stubs.contains(where: { $0.id == id && $0.sourceJSON != nil }) else {
                    return AdminResponse.error(404, "no WireMock mapping with id `\(id)`")
                }
                return saveMapping(request.body, id: id)
            case "DELETE":
                guard stubs.contains(where: { $0.id == id && $0.sourceJSON != nil }) else {
                    return AdminResponse.error(404, "no WireMock mapping with id `\(id)`")
                }
                return deleteStub(id)
            default: return AdminResponse.methodNotAllowed(method, allowed: ["GET", "PUT", "DELETE"])
            }
        case ["requests", "reset"]:
            guard method == "POST" else { return AdminResponse.methodNotAllowed(method, allowed: ["POST"]) }
            return AdminResponse.value(.object([JSONMember("cleared", .int(journal.clear()))]))
        case ["requests", "unmatched"]:
            guard method == "GET" else { return AdminResponse.methodNotAllowed(method, allowed: ["GET"]) }
            return renderRequests(where: { !$0.matched })
        case ["scenarios", "reset"]:
            guard method == "POST" else { return AdminResponse.methodNotAllowed(method, allowed: ["POST"]) }
            scenarios.reset()
            return AdminResponse.value(.object([]))
        case _ where segments.count == 3 && segments[0] == "scenarios" && segments[2] == "state":
            guard method == "PUT" else { return AdminResponse.methodNotAllowed(method, allowed: ["PUT"]) }
            return setScenario(segments[1], request.body)
        default:
            return nil
        }
    }

    /// Removes the mappings created through the WireMock admin API (part of `POST /__admin/reset`).
    func removeWireMockAdminMappings() {
        let keep = stubs.indices.filter { stubs[$0].file != Self.wireMockAdminFile }
        guard keep.count != stubs.count else { return }
        install(keep.map { stubs[$0] }, runtimes: keep.map { runtimes[$0] })
    }

    private func listMappings() -> HTTPResponse {
        let mappings = stubs.compactMap(\.sourceJSON).reversed()
        return AdminResponse.value(.object([
            JSONMember("mappings", .array(Array(mappings))),
            JSONMember("meta", .object([JSONMember("total", .int(mappings.count))])),
        ]))
    }

    /// Creates (`id` nil) or replaces a mapping; WireMock answers with the mapping, id included.
    private func saveMapping(_ body: [UInt8], id fixedID: String?) -> HTTPResponse {
        let node: JSONNode
        do {
            node = try JSONParser.parse(body)
        } catch {
            return AdminResponse.error(400, "body is not JSON (line \(error.position.line), column \(error.position.column)): \(error.message)")
        }
        var decoder = StubDecoder(file: Self.wireMockAdminFile, bodyFiles: nil)
        let decoded = decoder.decodeWireMockMapping(node, .root, generatedID: fixedID ?? UUID().uuidString.lowercased())
        guard var stub = decoded?.stub, decoder.errors.isEmpty else {
            return AdminResponse.loadFailure(StubLoadFailure(errors: decoder.errors))
        }
        if let fixedID { stub.id = fixedID }
        stub.idGenerated = false
        if case .object(var members)? = stub.sourceJSON {
            members.removeAll { $0.key == "id" || $0.key == "uuid" }
            members.insert(JSONMember("id", .string(stub.id)), at: 0)
            members.append(JSONMember("uuid", .string(stub.id)))
            stub.sourceJSON = .object(members)
        }
        var newStubs = stubs, newRuntimes = runtimes
        if let existing = newStubs.firstIndex(where: { $0.id == stub.id }) {
            newStubs[existing] = stub
            newRuntimes[existing] = StubRuntime()
        } else {
            newStubs.append(stub)
            newRuntimes.append(StubRuntime())
        }
        install(newStubs, runtimes: newRuntimes)
        return AdminResponse.value(stub.sourceJSON ?? .null, status: fixedID == nil ? 201 : 200)
    }

    /// WireMock's request fields for a journal entry: `url`, `absoluteUrl`, `clientIp`,
    /// `loggedDateString`, `queryParams`, `cookies`, `bodyAsBase64`, `browserProxyRequest`.
    static func wireMockRequestFields(_ entry: JournalEntry) -> [JSONMember] {
        let request = entry.request
        let url = request.query.map { request.path + "?" + $0 } ?? request.path
        let host = request.headers.values(for: "Host").first ?? "127.0.0.1"
        var query: [JSONMember] = []
        for (name, value) in PercentDecoding.queryPairs(request.query) {
            if let at = query.firstIndex(where: { $0.key == name }), case .object(var inner) = query[at].value,
               case .array(var values)? = inner.first?.value {
                values.append(.string(value))
                inner[0].value = .array(values)
                query[at].value = .object(inner)
            } else {
                query.append(JSONMember(name, .object([JSONMember("values", .array([.string(value)]))])))
            }
        }
        var time = ""
        if let start = entry.line.firstRange(of: Array("\"time\":\"".utf8))?.upperBound,
           let end = entry.line[start...].firstIndex(of: UInt8(ascii: "\"")) {
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

    /// Whether a request pattern is WireMock's shape rather than Understudy's: it uses a key only
    /// WireMock has (at the top or in a matcher), or WireMock's `"method": "ANY"`.
    static func isWireMockPattern(_ node: JSONNode) -> Bool {
        let wireMockKeys: Set<String> = ["urlPath", "urlPattern", "urlPathPattern", "queryParameters", "bodyPatterns",
                                         "basicAuthCredentials", "equalTo", "equalToJson", "matchesJsonPath", "binaryEqualTo",
                                         "caseInsensitive", "and", "or"]
        guard let members = node.members else { return false }
        if members.contains(where: { $0.key == "method" && $0.value.stringValue == "ANY" }) { return true }
        func scan(_ node: JSONNode, depth: Int) -> Bool {
            guard depth < 4, let members = node.members else { return false }
            return members.contains { wireMockKeys.contains($0.key) || scan($0.value, depth: depth + 1) }
        }
        return scan(node, depth: 0)
    }
}

extension StubEngine {
    /// WireMock's fields for a journal entry, as the bytes of a JSON object to splice into the
    /// native entry: its `LoggedRequest` fields at the top (what `find` and `unmatched` clients
    /// read) and its serve event's `request` and `responseDefinition` (what `GET
    /// /__admin/requests` clients read). Native fields WireMock shares (`method`, `body`) are
    /// already there.
    static func wireMockServeEventFields(_ entry: JournalEntry) -> [UInt8] {
        let fields = wireMockRequestFields(entry)
        var requestMembers: [JSONMember] = [
            JSONMember("method", .string(entry.request.method)),
            JSONMember("headers", .object(entry.request.headers.fields.map { JSONMember($0.name, .string($0.value)) })),
            JSONMember("body", .string(String(decoding: entry.request.body, as: UTF8.self))),
        ]
        requestMembers += fields.filter { $0.key != "id" && $0.key != "wasMatched" }
        return JSONValue.object(fields + [
            JSONMember("request", .object(requestMembers)),
            JSONMember("responseDefinition", .object([JSONMember("status", entry.status.map { .int($0) } ?? .null)])),
        ]).jsonBytes
    }
}
