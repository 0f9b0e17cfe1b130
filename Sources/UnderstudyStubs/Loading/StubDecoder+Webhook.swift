#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyHTTP
import UnderstudyStubFormat

/// A response's `webhooks`: `[{"url": …, "method"?, "headers"?, "json" | "body"?, "delayMs"?,
/// "timeoutMs"?}]`. The URL, header values and body are templates of the triggering request and
/// the sent response wherever they have tags (no `"template": true` needed). A literal URL the
/// allow-list refuses (``WebhookTargets``) is an error here; a templated one is refused when sent.
extension StubDecoder {
    static let webhookKeys = StubFormat.Object.webhook.keys
    /// `timeoutMs` at most ten minutes: a receiver that takes longer is treated as gone.
    static let maximumWebhookTimeoutMs = 600_000.0

    mutating func decodeWebhooks(_ node: JSONNode, _ path: JSONPath) -> [WebhookSetting]? {
        guard let elements = node.elements else {
            typeMismatch(
                node, path, expected: "an array of webhook objects (`[{\"url\": \"http://127.0.0.1:9000/hook\"}]`)")
            return nil
        }
        let errorsBefore = errors.count
        let hooks = elements.enumerated().compactMap { decodeWebhook($0.element, path.element($0.offset)) }
        return errors.count == errorsBefore && !hooks.isEmpty ? hooks : nil
    }

    /// One webhook object (one of a response's `webhooks`, or the body of `POST /__admin/webhooks`).
    package mutating func decodeWebhook(_ node: JSONNode, _ path: JSONPath) -> WebhookSetting? {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "a webhook object (`{\"url\": \"http://127.0.0.1:9000/hook\"}`)")
            return nil
        }
        let errorsBefore = errors.count
        let keys = members(of: node, path, known: Self.webhookKeys)
        // Without `url` it goes to the world's default (a session's `webhookDefaults.url`).
        let urlMember = keys["url"]
        let urlPath = path.member("url")
        var url: String?
        if let urlMember {
            guard let text = nonEmptyString(urlMember.value, urlPath, what: "an http:// or https:// URL") else {
                return nil
            }
            url = text
        }
        var hook: WebhookSetting
        if let url, let urlMember, TemplateText.hasTags(url) {
            guard let compiled = compileTemplate(url, at: urlMember.value.position, urlPath, .none, sent: true) else {
                return nil
            }
            hook = WebhookSetting(url: .template(compiled))
        } else if let url, let urlMember {
            if let problem = WebhookTargets.problem(url) { fail(urlMember.value.position, urlPath, problem) }
            hook = WebhookSetting(url: .literal(url))
        } else {
            hook = WebhookSetting(url: nil)
        }
        if let member = keys["method"] {
            let methodPath = path.member("method")
            if let method = nonEmptyString(member.value, methodPath, what: "an HTTP method such as `POST`") {
                if method.utf8.allSatisfy(Self.isTokenByte) {
                    hook.method = method.uppercased()
                } else {
                    fail(member.value.position, methodPath, "`\(method)` is not an HTTP method")
                }
            }
        }
        if let member = keys["headers"] {
            hook.headers = webhookHeaders(member.value, path.member("headers"))
        }
        let sources = (node.members ?? []).filter { StubFormat.webhookBodyKeys.contains($0.key) }
        if sources.count > 1 {
            fail(
                sources[1].keyPosition, path.member(sources[1].key),
                "a webhook has one body: give `json` or `body`, not both")
        } else if let member = keys["json"] {
            hook.body = .json(jsonTemplate(member.value, path.member("json"), .none, sent: true))
        } else if let member = keys["body"] {
            if let text = string(member.value, path.member("body")) {
                hook.body = .text(webhookText(text, member.value, path.member("body")))
            }
        }
        if let member = keys["delayMs"], member.value.members != nil {
            // A distribution, as a response's `delayMs` may be (drawn per delivery).
            hook.delayDistribution = decodeDelayDistribution(member.value, path.member("delayMs"))
        } else if let member = keys["delayMs"] {
            let delayPath = path.member("delayMs")
            if let delay = number(member.value, delayPath) {
                if delay >= 0 && delay <= Self.maximumDelayMs {
                    hook.delayMs = delay
                } else {
                    fail(
                        member.value.position, delayPath,
                        "`delayMs` must be from 0 to \(Int(Self.maximumDelayMs)) (one day)")
                }
            }
        }
        if let member = keys["timeoutMs"] {
            let timeoutPath = path.member("timeoutMs")
            if let timeout = number(member.value, timeoutPath) {
                if timeout >= 1 && timeout <= Self.maximumWebhookTimeoutMs {
                    hook.timeoutMs = timeout
                } else {
                    fail(
                        member.value.position, timeoutPath,
                        "`timeoutMs` must be from 1 to \(Int(Self.maximumWebhookTimeoutMs)) (ten minutes)")
                }
            }
        }
        if let member = keys["signing"] {
            hook.signing = decodeSigning(member.value, path.member("signing"))
        }
        if let member = keys["retry"] {
            hook.retryDelaysMs = decodeRetry(member.value, path.member("retry")) ?? []
        }
        return errors.count == errorsBefore ? hook : nil
    }

    /// At most this many retries: a schedule is for testing a receiver, not for spamming one.
    static let maximumRetries = 50

    /// `retry`: an array of milliseconds, a preset's name, or `{"initialMs", "factor"?, "maxMs"?, "attempts"}`.
    private mutating func decodeRetry(_ node: JSONNode, _ path: JSONPath) -> [Double]? {
        let expected =
            "an array of milliseconds (`[60000, 300000]`), a preset (`\"svix\"`, `\"none\"`) or "
            + "`{\"initialMs\": 1000, \"factor\": 2, \"maxMs\": 60000, \"attempts\": 5}`"
        if node.stringValue != nil {
            return enumValue(StubFormat.RetryPreset.self, node, path).map(WebhookRetrySchedule.delays)
        }
        if let elements = node.elements {
            guard elements.count <= Self.maximumRetries else {
                fail(node.position, path, "at most \(Self.maximumRetries) retries")
                return nil
            }
            var delays: [Double] = []
            for (index, element) in elements.enumerated() {
                guard let delay = retryDelay(element, path.element(index)) else { return nil }
                delays.append(delay)
            }
            return delays
        }
        guard node.members != nil else {
            typeMismatch(node, path, expected: expected)
            return nil
        }
        let keys = members(of: node, path, known: StubFormat.Object.backoff.keys)
        guard let initialMember = keys["initialMs"], let attemptsMember = keys["attempts"] else {
            fail(node.position, path, "exponential `retry` needs `initialMs` and `attempts`")
            return nil
        }
        guard let initial = retryDelay(initialMember.value, path.member("initialMs")),
            let attempts = integer(
                attemptsMember.value, path.member("attempts"), minimum: 1, what: "a number of retries")
        else { return nil }
        guard attempts <= Self.maximumRetries else {
            fail(attemptsMember.value.position, path.member("attempts"), "at most \(Self.maximumRetries) retries")
            return nil
        }
        var factor = 2.0
        if let member = keys["factor"], let value = number(member.value, path.member("factor")) {
            guard value >= 1 && value <= 100 else {
                fail(member.value.position, path.member("factor"), "`factor` must be from 1 to 100")
                return nil
            }
            factor = value
        }
        var cap = Self.maximumDelayMs
        if let member = keys["maxMs"] {
            guard let value = retryDelay(member.value, path.member("maxMs")) else { return nil }
            cap = value
        }
        return WebhookRetrySchedule.exponential(initialMs: initial, factor: factor, maxMs: cap, attempts: attempts)
    }

    private mutating func retryDelay(_ node: JSONNode, _ path: JSONPath) -> Double? {
        guard let delay = number(node, path) else { return nil }
        guard delay >= 0 && delay <= Self.maximumDelayMs else {
            fail(
                node.position, path,
                "a retry delay must be from 0 to \(Int(Self.maximumDelayMs)) milliseconds (one day)")
            return nil
        }
        return delay
    }

    /// `signing`: `{"format": "stripe" | "github" | "standard-webhooks" | "slack" | "hmac-sha256",
    /// "secret": …, "mistake"?, and for `hmac-sha256` "header", "signed"?, "encoding"?, "prefix"?,
    /// "timestampHeader"?}`.
    private mutating func decodeSigning(_ node: JSONNode, _ path: JSONPath) -> WebhookSignature? {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "a signing object (`{\"format\": \"stripe\", \"secret\": \"whsec_…\"}`)")
            return nil
        }
        let errorsBefore = errors.count
        let keys = members(of: node, path, known: StubFormat.Object.signing.keys)
        guard let formatMember = keys["format"] else {
            fail(
                node.position, path,
                "`signing` needs `format` (and `secret` or `secretEnv`, unless the session gives `webhookDefaults.secret`)"
            )
            return nil
        }
        guard let secretMember = keys["secret"] ?? keys["secretEnv"] else {
            // The secret comes from the world's defaults when the webhook is sent (`no-secret` if none).
            guard let format = enumValue(StubFormat.SigningFormat.self, formatMember.value, path.member("format"))
            else { return nil }
            return signingOptions(WebhookSignature(format: format, key: nil), keys, node, path)
        }
        if keys["secret"] != nil, let both = keys["secretEnv"] {
            fail(both.keyPosition, path.member("secretEnv"), "give `secret` or `secretEnv`, not both")
            return nil
        }
        guard let format = enumValue(StubFormat.SigningFormat.self, formatMember.value, path.member("format")),
            let given = nonEmptyString(secretMember.value, path.member(secretMember.key), what: "the signing secret")
        else { return nil }
        var secret = given
        if secretMember.key == "secretEnv" {
            // Read when the stub loads, so a missing variable is a load-time error at its place.
            guard let value = ProcessInfo.processInfo.environment[given], !value.isEmpty else {
                fail(
                    secretMember.value.position, path.member("secretEnv"),
                    "environment variable `\(given)` is not set (or empty) in the daemon's environment")
                return nil
            }
            secret = value
        }
        var key = Array(secret.utf8)
        if format == .standardWebhooks {
            // The Standard Webhooks secret is `whsec_` and base64; the key is the decoded bytes.
            let encoded = secret.hasPrefix("whsec_") ? String(secret.dropFirst(6)) : secret
            if let data = Data(base64Encoded: encoded) {
                key = Array(data)
            } else {
                fail(
                    secretMember.value.position, path.member("secret"),
                    "a `standard-webhooks` secret is `whsec_` and base64 (`whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw`)")
            }
        }
        return signingOptions(WebhookSignature(format: format, key: key), keys, node, path, errorsBefore: errorsBefore)
    }

    /// `signing`'s other keys onto `given`: `mistake`, and `hmac-sha256`'s `header`, `signed`,
    /// `encoding`, `prefix` and `timestampHeader` (refused for the other formats).
    private mutating func signingOptions(
        _ given: WebhookSignature, _ keys: ObjectMembers, _ node: JSONNode, _ path: JSONPath, errorsBefore: Int? = nil
    ) -> WebhookSignature? {
        let errorsBefore = errorsBefore ?? errors.count
        let format = given.format
        var signature = given
        if let member = keys["mistake"] {
            signature.mistake = enumValue(StubFormat.SigningMistake.self, member.value, path.member("mistake"))
        }
        let generic = ["header", "signed", "encoding", "prefix", "timestampHeader"]
        if format != .hmacSHA256 {
            for name in generic {
                if let member = keys[name] {
                    fail(
                        member.keyPosition, path.member(name),
                        "`\(name)` is for the `hmac-sha256` format; `\(format.rawValue)` writes its own headers")
                }
            }
        } else {
            if let member = keys["header"] {
                if let name = nonEmptyString(member.value, path.member("header"), what: "a header name") {
                    if name.utf8.allSatisfy(Self.isTokenByte) {
                        signature.header = name
                    } else {
                        fail(member.value.position, path.member("header"), "`\(name)` is not a valid header name")
                    }
                }
            } else {
                fail(node.position, path, "`hmac-sha256` needs `header`, the signature's header name")
            }
            if let member = keys["signed"],
                let signed = enumValue(StubFormat.SignedContent.self, member.value, path.member("signed"))
            {
                signature.signed = signed
            }
            if let member = keys["encoding"],
                let encoding = enumValue(StubFormat.SignatureEncoding.self, member.value, path.member("encoding"))
            {
                signature.encoding = encoding
            }
            if let member = keys["prefix"], let prefix = string(member.value, path.member("prefix")) {
                signature.prefix = prefix
            }
            if let member = keys["timestampHeader"],
                let name = nonEmptyString(member.value, path.member("timestampHeader"), what: "a header name")
            {
                signature.timestampHeader = name
            }
        }
        return errors.count == errorsBefore ? signature : nil
    }

    /// A string that must be one of `Value`'s raw values; a typo gets a suggestion.
    private mutating func enumValue<Value: RawRepresentable & CaseIterable>(
        _ type: Value.Type, _ node: JSONNode, _ path: JSONPath
    ) -> Value? where Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        guard let text = string(node, path) else { return nil }
        if let value = Value(rawValue: text) { return value }
        let hint = EditDistance.closest(to: text, among: names).map { "; did you mean `\($0)`?" } ?? ""
        fail(
            node.position, path,
            "unknown value `\(text)`\(hint) (one of \(names.map { "`\($0)`" }.joined(separator: ", ")))")
        return nil
    }

    /// The webhook's header fields (checked as a response's are), each value a template where it has tags.
    private mutating func webhookHeaders(_ node: JSONNode, _ path: JSONPath) -> [(
        name: String, value: WebhookSetting.Text
    )] {
        let checked = decodeHeaders(node, path)
        guard let members = node.members, checked.fields.count > 0 else { return [] }
        var fields: [(name: String, value: WebhookSetting.Text)] = []
        for member in members {
            let nodes = member.value.elements ?? [member.value]
            for (index, valueNode) in nodes.enumerated() {
                guard let text = valueNode.stringValue else { continue }
                let valuePath =
                    member.value.elements == nil ? path.member(member.key) : path.member(member.key).element(index)
                fields.append((member.key, webhookText(text, valueNode, valuePath)))
            }
        }
        return fields
    }

    /// A string of a webhook: a template (which may read `response.…`) where it has tags.
    private mutating func webhookText(_ text: String, _ node: JSONNode, _ path: JSONPath) -> WebhookSetting.Text {
        guard TemplateText.hasTags(text) else { return .literal(text) }
        return compileTemplate(text, at: node.position, path, .none, sent: true).map { .template($0) } ?? .literal(text)
    }
}
