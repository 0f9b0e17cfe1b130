#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyJSON

/// WireMock mappings decoded into the native model: the WireMock format is an adapter, and the
/// engine serves its stubs exactly as it serves native ones. What WireMock's rules add is carried
/// by the model: `priority` (1 highest, default 5) and `tieOrder` `.newestFirst` (among equal
/// priorities the most recently added mapping answers); the mapping as written rides along as the
/// stub's ``WireMockMapping`` annotation. Anything the model cannot express is refused by name.
extension StubDecoder {
    static let wireMockMappingKeys = [
        "id", "uuid", "name", "request", "response", "priority", "scenarioName",
        "requiredScenarioState", "newScenarioState", "metadata", "persistent", "insertionIndex",
        "postServeActions", "serveEventListeners",
    ]
    /// Mapping keys WireMock has and Understudy refuses, with why.
    static let wireMockUnsupportedMappingKeys: [String: String] = [:]

    /// Whether a parsed document is WireMock's: a single mapping (`request` and `response`) or
    /// `{"mappings": [...]}`, and not a native stub file.
    static func isWireMockDocument(_ root: JSONNode) -> Bool {
        guard let members = root.members, !members.contains(where: { $0.key == "stubs" }) else { return false }
        let keys = Set(members.map(\.key))
        return keys.contains("mappings") || (keys.contains("request") && keys.contains("response"))
    }

    /// Decodes a WireMock document (one mapping or `{"mappings": [...]}`).
    mutating func decodeWireMockDocument(_ root: JSONNode, generatedID: (Int) -> String) -> [DecodedStub] {
        guard let members = root.members else { return [] }
        if let mappings = members.first(where: { $0.key == "mappings" }) {
            // WireMock reads a collection file as a StubMapping with `mappings` (StubMappingCollection),
            // so a mapping's own keys (a file-level `metadata` description, say) load there and are
            // ignored; `meta` is what the admin API's export writes.
            _ = self.members(of: root, .root, known: ["mappings", "meta"] + Self.wireMockMappingKeys)
            let path = JSONPath.root.member("mappings")
            guard let elements = mappings.value.elements else {
                typeMismatch(mappings.value, path, expected: "an array of WireMock mappings")
                return []
            }
            return elements.enumerated().compactMap { index, element in
                decodeOrSkipWireMockMapping(element, path.element(index), index: index, generatedID: generatedID(index))
            }
        }
        return decodeOrSkipWireMockMapping(root, .root, index: 0, generatedID: generatedID(0)).map { [$0] } ?? []
    }

    /// Decodes one mapping of a file; with ``skippingMappings``, a mapping with a problem is left
    /// out and recorded in ``skipped`` (its problems with it) instead of failing the file.
    private mutating func decodeOrSkipWireMockMapping(
        _ node: JSONNode, _ path: JSONPath, index: Int, generatedID: String
    ) -> DecodedStub? {
        let errorsBefore = errors.count
        let decoded = decodeWireMockMapping(node, path, generatedID: generatedID)
        guard skippingMappings, errors.count > errorsBefore else { return decoded }
        let problems = Array(errors[errorsBefore...])
        errors.removeSubrange(errorsBefore...)
        let (method, url) = Self.wireMockMethodAndURL(node)
        skipped.append(SkippedMapping(file: file, index: index, problems: problems, method: method, path: url))
        return nil
    }

    /// What can still be read of a mapping's method and URL condition, for naming a skipped
    /// mapping in the explanation of a request it might have answered; `nil` for either means any.
    static func wireMockMethodAndURL(_ node: JSONNode) -> (String?, PathMatcher?) {
        guard let request = node.members?.last(where: { $0.key == "request" })?.value.members else { return (nil, nil) }
        let method = request.last { $0.key == "method" }?.value.stringValue.flatMap { $0 == "ANY" ? nil : $0 }
        var url: PathMatcher?
        for member in request {
            guard let text = member.value.stringValue else { continue }
            switch member.key {
            case "url": url = .exactTarget(text)
            case "urlPath": url = .exact(PercentDecoding.decodePath(text))
            case "urlPattern": url = (try? CompiledRegex(text)).map(PathMatcher.targetPattern)
            case "urlPathPattern": url = (try? CompiledRegex(text)).map(PathMatcher.pattern)
            default: break
            }
        }
        return (method?.uppercased(), url)
    }

    /// `node` with every key given twice in one object kept once, as WireMock's JSON reader
    /// keeps it: the last value, in the first one's place. One warning per key dropped.
    mutating func keepingLastKeys(_ node: JSONNode, _ path: JSONPath) -> JSONNode {
        switch node.kind {
        case .array(let items):
            var kept: [JSONNode] = []
            kept.reserveCapacity(items.count)
            for (index, item) in items.enumerated() { kept.append(keepingLastKeys(item, path.element(index))) }
            return JSONNode(kind: .array(kept), position: node.position)
        case .object(let members):
            var kept: [JSONNode.Member] = []
            for member in members {
                var member = member
                member.value = keepingLastKeys(member.value, path.member(member.key))
                if let earlier = kept.firstIndex(where: { $0.key == member.key }) {
                    warn(
                        member.keyPosition, path.member(member.key),
                        "key `\(member.key)` appears more than once; the last one wins, as in WireMock")
                    kept[earlier].value = member.value
                } else {
                    kept.append(member)
                }
            }
            return JSONNode(kind: .object(kept), position: node.position)
        default:
            return node
        }
    }

    /// Decodes one mapping into a stub.
    mutating func decodeWireMockMapping(_ node: JSONNode, _ path: JSONPath, generatedID: String) -> DecodedStub? {
        let node = lastDuplicateKeyWins ? keepingLastKeys(node, path) : node
        guard let all = node.members else {
            typeMismatch(node, path, expected: "a WireMock mapping object")
            return nil
        }
        let errorsBefore = errors.count
        for member in all {
            if let reason = Self.wireMockUnsupportedMappingKeys[member.key] {
                fail(
                    member.keyPosition, path.member(member.key),
                    "unsupported WireMock feature `\(member.key)`: \(reason)")
            }
        }
        let keys = members(of: node, path, known: Self.wireMockMappingKeys + Self.wireMockUnsupportedMappingKeys.keys)

        var id = generatedID, idGenerated = true, idPosition = node.position
        if let member = keys["id"] ?? keys["uuid"] {
            if let text = nonEmptyString(member.value, path.member(member.key), what: "a mapping id") {
                id = text
                idGenerated = false
                idPosition = member.value.position
            }
        }
        if let a = keys["id"], let b = keys["uuid"], let x = a.value.stringValue, let y = b.value.stringValue, x != y {
            fail(b.value.position, path.member("uuid"), "`uuid` `\(y)` differs from `id` `\(x)`; give one")
        }
        let name = keys["name"].flatMap { string($0.value, path.member("name")) }

        var request = RequestPattern()
        if let member = keys["request"] {
            request = decodeWireMockRequest(member.value, path.member("request")) ?? RequestPattern()
        } else {
            fail(node.position, path, "missing key `request`; a WireMock mapping needs `request` and `response`")
        }
        var response = StubResponse()
        if let member = keys["response"] {
            response = decodeWireMockResponse(member.value, path.member("response")) ?? StubResponse()
        } else {
            fail(node.position, path, "missing key `response`; a WireMock mapping needs `request` and `response`")
        }
        // Webhooks (StubDecoder+WireMockWebhook.swift): WireMock 2's `postServeActions` and
        // WireMock 3's `serveEventListeners`, both fired after the response is sent.
        var hooks: [WebhookSetting] = []
        for key in ["postServeActions", "serveEventListeners"] {
            if let member = keys[key] { hooks += decodeWireMockWebhooks(member, path) }
        }
        if !hooks.isEmpty {
            if response.proxy != nil {
                warn(
                    node.position, path,
                    "the webhook is not sent: a `proxyBaseUrl` response takes no webhooks in Understudy")
            } else {
                response.webhooks = hooks
            }
        }

        let priority = keys["priority"].flatMap {
            integer($0.value, path.member("priority"), minimum: 1, what: "a priority")
        }
        let scenario = keys["scenarioName"].flatMap {
            nonEmptyString($0.value, path.member("scenarioName"), what: "a scenario name")
        }
        let whenState = keys["requiredScenarioState"].flatMap {
            nonEmptyString($0.value, path.member("requiredScenarioState"), what: "a state name")
        }
        let setState = keys["newScenarioState"].flatMap {
            nonEmptyString($0.value, path.member("newScenarioState"), what: "a state name")
        }
        if scenario == nil {
            for key in ["requiredScenarioState", "newScenarioState"] {
                if let member = keys[key] {
                    fail(member.keyPosition, path.member(key), "`\(key)` needs `scenarioName`")
                }
            }
        }
        var metadata: JSONValue?
        if let member = keys["metadata"] {
            if member.value.members != nil {
                metadata = member.value.value
            } else {
                typeMismatch(member.value, path.member("metadata"), expected: "an object")
            }
        }
        if let member = keys["persistent"] { _ = boolean(member.value, path.member("persistent")) }

        let decoded = DecodedStub(
            stub: nil, id: id, idGenerated: idGenerated, file: file, idPosition: idPosition, path: path)
        guard errors.count == errorsBefore else { return decoded }
        var source = node.value
        // A generated id is listed too (WireMock lists an id for every mapping): for a mapping file
        // it is derived from the file and index, so clients can address it across restarts.
        if source["id"] == nil, case .object(var members) = source {
            members.insert(JSONMember("id", .string(id)), at: 0)
            source = .object(members)
        }
        var stub = Stub(
            id: id, file: file, description: name, request: request, requestJSON: node.value["request"],
            responses: [response], afterLast: .repeat, scenario: scenario, whenState: whenState, setState: setState)
        stub.idGenerated = idGenerated
        stub.priority = priority
        stub.tieOrder = .newestFirst
        stub.annotation = WireMockMapping(json: source, metadata: metadata)
        return DecodedStub(
            stub: stub, id: id, idGenerated: idGenerated, file: file, idPosition: idPosition, path: path,
            wireMockDerivedID: idGenerated ? nil : generatedID)
    }
}
