#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyJSON

/// WireMock's webhooks: a mapping's `postServeActions` (WireMock 2's webhook extension) and
/// `serveEventListeners` (WireMock 3.1 on), each `[{"name": "webhook", "parameters": {…}}]`,
/// decoded onto the engine's ``WebhookSetting`` as the native `webhooks` are, with WireMock's
/// semantics (its `org.wiremock.webhooks.Webhooks` and `WebhookDefinition`, docs/webhooks.md):
///
/// - `method` defaults to `GET`, and a body goes only with `POST`, `PUT` or `PATCH`;
/// - `url`, `method`, header values and `body` are Handlebars templates of the triggering request,
///   which they read as `originalRequest` (`{{jsonPath originalRequest.body '$.id'}}`), and of the
///   webhook's own parameters (`parameters.NAME`); `{{x}}` escapes for HTML, as Handlebars does;
/// - `base64Body` is sent as its bytes, never a template;
/// - `delay` is `{"type": "fixed", "milliseconds": N}`, `uniform` (`lower`, `upper`) or `lognormal`
///   (`median`, `sigma`, `maxValue`), after the response is sent;
/// - no signing and no retries (WireMock has neither: wiremock#2173, wiremock#3035).
///
/// Where WireMock would log an error when it fires and send nothing (no `url`, a target it denies),
/// the response is still served, as in WireMock, and the load says so in a warning.
extension StubDecoder {
    /// The listener name WireMock's webhook extension registers.
    static let wireMockWebhookName = "webhook"
    /// The parameters `WebhookDefinition.from` reads; any other is an extra parameter, which a
    /// template reads as `parameters.NAME`.
    static let wireMockWebhookParameters = ["method", "url", "headers", "body", "base64Body", "bodyFileName", "delay"]
    /// The methods WireMock sends a body with (`RequestMethod.hasEntity`).
    static let wireMockMethodsWithBody: Set<String> = ["POST", "PUT", "PATCH"]

    /// `postServeActions` or `serveEventListeners` (`member.key`): the webhooks among them.
    /// Another extension's entry is ignored with a warning, as WireMock ignores an action it has
    /// no extension for.
    mutating func decodeWireMockWebhooks(_ member: JSONNode.Member, _ path: JSONPath) -> [WebhookSetting] {
        let listPath = path.member(member.key)
        var entries: [(name: String, parameters: JSONNode, phases: JSONNode?, path: JSONPath)] = []
        if let elements = member.value.elements {
            for (index, element) in elements.enumerated() {
                let elementPath = listPath.element(index)
                guard element.members != nil else {
                    typeMismatch(element, elementPath, expected: "{\"name\": \"webhook\", \"parameters\": {…}}")
                    continue
                }
                let keys = members(of: element, elementPath, known: ["name", "parameters", "requestPhases"])
                guard let nameMember = keys["name"],
                    let name = nonEmptyString(nameMember.value, elementPath.member("name"), what: "an extension name")
                else {
                    if keys["name"] == nil { fail(element.position, elementPath, "missing key `name` (`\"webhook\"`)") }
                    continue
                }
                let parameters =
                    keys["parameters"]?.value ?? JSONNode(kind: .object([]), position: element.position)
                entries.append((name, parameters, keys["requestPhases"]?.value, elementPath.member("parameters")))
            }
        } else if let members = member.value.members {
            // WireMock 2's first form: `{"webhook": {…parameters}}`, one entry per extension name.
            for entry in members { entries.append((entry.key, entry.value, nil, listPath.member(entry.key))) }
        } else {
            typeMismatch(
                member.value, listPath, expected: "an array like [{\"name\": \"webhook\", \"parameters\": {…}}]")
            return []
        }
        var hooks: [WebhookSetting] = []
        for entry in entries {
            guard entry.name == Self.wireMockWebhookName else {
                warn(
                    member.keyPosition, listPath,
                    "extension `\(entry.name)` ignored: only `webhook` is supported, and WireMock ignores an action it has no extension for"
                )
                continue
            }
            if let phases = entry.phases, let names = phases.elements?.compactMap(\.stringValue),
                !names.contains("AFTER_COMPLETE")
            {
                // WireMock's webhook fires in `afterComplete`; a listener not called then sends nothing.
                warn(
                    phases.position, listPath,
                    "this webhook never fires: its `requestPhases` leave out `AFTER_COMPLETE`, the phase WireMock sends webhooks in"
                )
                continue
            }
            if let hook = decodeWireMockWebhook(entry.parameters, entry.path) { hooks.append(hook) }
        }
        return hooks
    }

    /// One webhook's `parameters`, as `WebhookDefinition.from` reads them.
    private mutating func decodeWireMockWebhook(_ node: JSONNode, _ path: JSONPath) -> WebhookSetting? {
        guard let all = node.members else {
            typeMismatch(node, path, expected: "an object of webhook parameters (`{\"url\": …, \"method\": \"POST\"}`)")
            return nil
        }
        let errorsBefore = errors.count
        var keys = ObjectMembers()
        for member in all { keys[member.key] = member }
        // Extra parameters are the templates' `parameters.NAME` (scalars; WireMock puts them all in the model).
        var parameters: [String: String] = [:]
        for member in all {
            switch member.value.value {
            case .string(let text), .number(let text): parameters[member.key] = text
            case .bool(let flag): parameters[member.key] = flag ? "true" : "false"
            default: break
            }
        }
        guard let urlMember = keys["url"] else {
            warn(
                node.position, path,
                "this webhook has no `url`: WireMock logs an error when it would fire and sends nothing; so does Understudy (the response is served)"
            )
            return nil
        }
        let urlPath = path.member("url")
        guard let url = nonEmptyString(urlMember.value, urlPath, what: "an http:// or https:// URL") else { return nil }
        var hook: WebhookSetting
        if TemplateText.hasTags(url) {
            guard let compiled = wireMockWebhookTemplate(url, urlMember.value, urlPath, parameters) else { return nil }
            hook = WebhookSetting(url: .template(compiled))
        } else {
            if let problem = WebhookTargets.problem(url) {
                // WireMock denies a target when it fires (`ProhibitedNetworkAddressException`) and
                // still serves; so does Understudy, journaling the refusal.
                warn(
                    urlMember.value.position, urlPath,
                    problem + "; the response is served, the webhook refused when it fires")
            }
            hook = WebhookSetting(url: .literal(url))
        }
        hook.timeoutMs = WebhookSetting.defaultTimeoutMs
        hook.method = "GET"  // `parameters.getString("method", "GET")`
        var bodyAllowed = false
        if let member = keys["method"] {
            let methodPath = path.member("method")
            if let method = nonEmptyString(member.value, methodPath, what: "an HTTP method such as `POST`") {
                if TemplateText.hasTags(method) {
                    hook.methodTemplate = wireMockWebhookTemplate(method, member.value, methodPath, parameters)
                    bodyAllowed = true  // known only when it renders: the body is kept
                } else if method.utf8.allSatisfy(Self.isTokenByte) {
                    hook.method = method
                } else {
                    fail(member.value.position, methodPath, "`\(method)` is not an HTTP method")
                }
            }
        }
        bodyAllowed = bodyAllowed || Self.wireMockMethodsWithBody.contains(hook.method.uppercased())
        if let member = keys["headers"] {
            hook.headers = wireMockWebhookHeaders(member.value, path.member("headers"), parameters)
        }
        let sources = all.filter { ["body", "base64Body"].contains($0.key) }
        if sources.count > 1 {
            // `WebhookDefinition` takes `body` first and drops `base64Body`: refused rather than guessed at.
            fail(
                sources[1].keyPosition, path.member(sources[1].key),
                "a webhook has one body: give `body` or `base64Body`, not both")
        } else if let source = sources.first {
            let sourcePath = path.member(source.key)
            if !bodyAllowed {
                warn(
                    source.keyPosition, sourcePath,
                    "`\(source.key)` ignored: WireMock sends a webhook's body only with POST, PUT or PATCH, and this one is `\(hook.method)`"
                )
            } else if source.key == "body", let text = string(source.value, sourcePath) {
                if TemplateText.hasTags(text) {
                    if let compiled = wireMockWebhookTemplate(text, source.value, sourcePath, parameters) {
                        hook.body = .text(.template(compiled))
                    }
                } else {
                    hook.body = .text(.literal(text))
                }
            } else if source.key == "base64Body", let text = string(source.value, sourcePath) {
                if let data = Data(base64Encoded: text, options: [.ignoreUnknownCharacters]) {
                    hook.body = .bytes(Array(data))
                } else {
                    fail(source.value.position, sourcePath, "`base64Body` is not valid base64")
                }
            }
        }
        if let member = keys["bodyFileName"] {
            warn(
                member.keyPosition, path.member("bodyFileName"),
                "`bodyFileName` ignored: WireMock's webhook never reads it (give `body` or `base64Body`)")
        }
        if let member = keys["delay"] {
            decodeWireMockWebhookDelay(member.value, path.member("delay"), into: &hook)
        }
        return errors.count == errorsBefore ? hook : nil
    }

    /// `delay`: WireMock's `DelayDistribution` JSON; `fixed` is a plain delay, `uniform` and
    /// `lognormal` are drawn per delivery as a response's `delayDistribution` is.
    private mutating func decodeWireMockWebhookDelay(
        _ node: JSONNode, _ path: JSONPath, into hook: inout WebhookSetting
    ) {
        guard let members = node.members else {
            typeMismatch(node, path, expected: "an object like {\"type\": \"fixed\", \"milliseconds\": 1000}")
            return
        }
        guard members.first(where: { $0.key == "type" })?.value.stringValue == "fixed" else {
            hook.delayDistribution = decodeWireMockDistribution(node, path)
            return
        }
        _ = self.members(of: node, path, known: ["type", "milliseconds"])
        guard let milliseconds = members.first(where: { $0.key == "milliseconds" }) else {
            fail(node.position, path, "a fixed delay needs `milliseconds`")
            return
        }
        hook.delayMs = delayBound(milliseconds.value, path.member("milliseconds")) ?? 0
    }

    /// The webhook's header fields: a value or an array of values per name, each a template where
    /// it has tags.
    private mutating func wireMockWebhookHeaders(_ node: JSONNode, _ path: JSONPath, _ parameters: [String: String])
        -> [(name: String, value: WebhookSetting.Text)]
    {
        guard let members = node.members else {
            typeMismatch(node, path, expected: "an object of header names and values")
            return []
        }
        var fields: [(name: String, value: WebhookSetting.Text)] = []
        for member in members {
            let namePath = path.member(member.key)
            guard !member.key.isEmpty, member.key.utf8.allSatisfy(Self.isTokenByte) else {
                fail(member.keyPosition, namePath, "`\(member.key)` is not a valid header name")
                continue
            }
            let values: [JSONNode] = member.value.elements ?? [member.value]
            for (index, valueNode) in values.enumerated() {
                let valuePath = member.value.elements == nil ? namePath : namePath.element(index)
                guard let text = valueNode.stringValue ?? valueNode.numberText else {
                    typeMismatch(valueNode, valuePath, expected: "a header value (a string)")
                    continue
                }
                if TemplateText.hasTags(text) {
                    if let compiled = wireMockWebhookTemplate(text, valueNode, valuePath, parameters) {
                        fields.append((member.key, .template(compiled)))
                    }
                } else {
                    fields.append((member.key, .literal(text)))
                }
            }
        }
        return fields
    }

    /// A webhook string's Handlebars translated (the request read as `originalRequest`) and
    /// compiled as a native template, HTML-escaping `{{x}}` as Handlebars does.
    private mutating func wireMockWebhookTemplate(
        _ text: String, _ node: JSONNode, _ path: JSONPath, _ parameters: [String: String]
    ) -> TemplateText? {
        switch WireMockHandlebars.translate(text, parameters: parameters, requestRoot: "originalRequest") {
        case .success(let native):
            return compileTemplate(native, at: node.position, path, .html)
        case .failure(let problem):
            fail(node.position, path, problem.message)
            return nil
        }
    }
}
