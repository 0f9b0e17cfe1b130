import UnderstudyStubFormat

/// A response's `proxy`: `{"to": URL, "stripPrefix": "/v1"?, "timeoutMs": N?, "setHeaders": {…}?,
/// "removeHeaders": [names]?, "addResponseHeaders": {…}?}`. The upstream's
/// answer is the whole response, so the only other keys such a response takes are `times` and
/// `delayMs` (waited out before forwarding).
extension StubDecoder {
    static let proxyKeys = StubFormat.Object.proxy.keys
    /// `timeoutMs` at most one hour: a proxied request holds its client connection meanwhile.
    static let maximumProxyTimeoutMs = 3_600_000.0

    package mutating func decodeProxy(_ member: JSONNode.Member, siblings: [JSONNode.Member], _ path: JSONPath)
        -> ProxySetting?
    {
        let proxyPath = path.member("proxy")
        for sibling in siblings where sibling.key != "proxy" && !StubFormat.proxyCompanionKeys.contains(sibling.key) {
            if !Self.responseKeys.contains(sibling.key) { continue }  // already refused as unknown
            fail(
                sibling.keyPosition, path.member(sibling.key),
                "a `proxy` response answers with the upstream's status, headers and body; drop `\(sibling.key)`"
                    + " (only `times` and `delayMs` go with `proxy`)")
        }
        guard member.value.members != nil else {
            typeMismatch(member.value, proxyPath, expected: "{\"to\": \"https://host\", \"stripPrefix\": \"/v1\"}")
            return nil
        }
        let errorsBefore = errors.count
        let fields = members(of: member.value, proxyPath, known: Self.proxyKeys)
        guard let toMember = fields["to"] else {
            fail(member.value.position, proxyPath, "`proxy` needs `to`, the upstream's base URL (`https://host`)")
            return nil
        }
        let toPath = proxyPath.member("to")
        guard let to = nonEmptyString(toMember.value, toPath, what: "an http:// or https:// URL") else { return nil }
        if let problem = Self.upstreamURLProblem(to) {
            fail(toMember.value.position, toPath, problem)
        }
        var setting = ProxySetting(to: to)
        if let prefixMember = fields["stripPrefix"] {
            let prefixPath = proxyPath.member("stripPrefix")
            if let prefix = nonEmptyString(prefixMember.value, prefixPath, what: "a path prefix such as `/v1`") {
                if prefix.hasPrefix("/") {
                    setting.stripPrefix = prefix
                } else {
                    fail(
                        prefixMember.value.position, prefixPath,
                        "`stripPrefix` is a path: start it with `/` (`/\(prefix)`)")
                }
            }
        }
        if let timeoutMember = fields["timeoutMs"] {
            let timeoutPath = proxyPath.member("timeoutMs")
            if let timeout = number(timeoutMember.value, timeoutPath) {
                if timeout >= 1 && timeout <= Self.maximumProxyTimeoutMs {
                    setting.timeoutMs = timeout
                } else {
                    fail(
                        timeoutMember.value.position, timeoutPath,
                        "`timeoutMs` must be from 1 to \(Int(Self.maximumProxyTimeoutMs)) (one hour)")
                }
            }
        }
        if let member = fields["setHeaders"] {
            setting.setHeaders = decodeHeaders(member.value, proxyPath.member("setHeaders"))
        }
        if let member = fields["removeHeaders"] {
            setting.removeHeaders = decodeHeaderNames(member.value, proxyPath.member("removeHeaders"))
        }
        if let member = fields["addResponseHeaders"] {
            setting.addResponseHeaders = decodeHeaders(member.value, proxyPath.member("addResponseHeaders"))
        }
        return errors.count == errorsBefore ? setting : nil
    }

    /// An array of header names (`removeHeaders`).
    package mutating func decodeHeaderNames(_ node: JSONNode, _ path: JSONPath) -> [String] {
        guard let elements = node.elements else {
            typeMismatch(node, path, expected: "an array of header names")
            return []
        }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            guard let name = string(element, path.element(index)) else { continue }
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                fail(element.position, path.element(index), "`\(name)` is not a valid header name")
                continue
            }
            names.append(name)
        }
        return names
    }

    /// Why `text` is not an upstream base URL (`http://` or `https://`, a host, no query or
    /// fragment), or nil when it is one.
    package static func upstreamURLProblem(_ text: String) -> String? {
        let lower = text.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lower.hasPrefix($0) }) else {
            return "`to` must be an http:// or https:// URL, found `\(text)`"
        }
        let rest = text.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        if authority.isEmpty { return "`to` has no host: `\(text)`" }
        if text.contains("?") || text.contains("#") {
            return "`to` is a base URL without a query or fragment; the request's own query is forwarded"
        }
        if text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return "`to` may not contain spaces or control characters"
        }
        return nil
    }
}
