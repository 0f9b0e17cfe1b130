/// Request matchers posted on their own (`POST /__admin/requests/count` and `find`), in either
/// format the loader reads.
extension StubLoader {
    /// A request matcher, bare or wrapped as `{"request": {...}}`: Understudy's shape, or
    /// WireMock's request pattern (told apart by its keys, see ``isWireMockPattern(_:)``).
    static func requestPattern(_ node: JSONNode) -> Result<RequestPattern, StubLoadFailure> {
        var target = node
        var path = ""
        if let members = node.members, members.count == 1, members[0].key == "request" {
            target = members[0].value
            path = "request"
        }
        var decoder = StubDecoder(file: "<admin>", bodyFiles: nil)
        let pattern =
            isWireMockPattern(target)
            ? decoder.decodeWireMockRequest(target, JSONPath(text: path))
            : decoder.decodeRequest(target, path)
        guard let pattern, decoder.errors.isEmpty else {
            return .failure(StubLoadFailure(errors: decoder.errors))
        }
        return .success(pattern)
    }

    /// Whether a request pattern is WireMock's shape rather than Understudy's: it uses a key only
    /// WireMock has (at the top or in a matcher), or WireMock's `"method": "ANY"`.
    static func isWireMockPattern(_ node: JSONNode) -> Bool {
        let wireMockKeys: Set<String> = [
            "urlPath", "urlPattern", "urlPathPattern", "queryParameters", "bodyPatterns",
            "basicAuthCredentials", "equalTo", "equalToJson", "matchesJsonPath", "binaryEqualTo",
            "caseInsensitive", "and", "or",
        ]
        guard let members = node.members else { return false }
        if members.contains(where: { $0.key == "method" && $0.value.stringValue == "ANY" }) { return true }
        func scan(_ node: JSONNode, depth: Int) -> Bool {
            guard depth < 4, let members = node.members else { return false }
            return members.contains { wireMockKeys.contains($0.key) || scan($0.value, depth: depth + 1) }
        }
        return scan(node, depth: 0)
    }
}
