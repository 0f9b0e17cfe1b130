#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyStubFormat

/// A world's webhook defaults (`POST /__admin/sessions` `{"webhookDefaults": {"url", "secret"}}`):
/// the target of a stub's webhook that gives no `url`, and the secret of one whose `signing` gives
/// no `secret`, so one stub file serves every session, each sending to its own test's receiver
/// with its own secret (docs/webhooks.md).
public struct WebhookDefaults: Sendable, Equatable {
    /// Where a webhook without `url` goes; nil: such a webhook fails as `no-target`.
    public var url: String?
    /// The secret of a `signing` without one; nil: such a webhook fails as `no-secret`.
    public var secret: String?

    /// Defaults with this target and secret.
    public init(url: String? = nil, secret: String? = nil) {
        self.url = url
        self.secret = secret
    }

    /// The keys of `webhookDefaults`.
    static let keys = ["url", "secret"]

    /// Why a `webhookDefaults` was refused: the 400's words.
    struct Problem: Error {
        var message: String
    }

    /// Decodes `webhookDefaults`; the failure says why, for the 400.
    static func decode(_ value: JSONValue) -> Result<WebhookDefaults, Problem> {
        guard case .object(let members) = value else {
            return .failure(
                Problem(
                    message:
                        "`webhookDefaults` must be an object like {\"url\": \"http://127.0.0.1:9000/hooks\", \"secret\": \"whsec_…\"}"
                ))
        }
        var defaults = WebhookDefaults()
        for member in members {
            guard keys.contains(member.key) else {
                let hint = EditDistance.closest(to: member.key, among: keys).map { "; did you mean `\($0)`?" } ?? ""
                return .failure(
                    Problem(message: "`webhookDefaults` has no key `\(member.key)`\(hint) (it has `url` and `secret`)"))
            }
            guard case .string(let text) = member.value, !text.isEmpty else {
                return .failure(Problem(message: "`webhookDefaults.\(member.key)` must be a non-empty string"))
            }
            if member.key == "url" {
                if TemplateText.hasTags(text) {
                    return .failure(Problem(message: "`webhookDefaults.url` is a URL, not a template: found `\(text)`"))
                }
                if let problem = WebhookTargets.problem(text) {
                    return .failure(Problem(message: "`webhookDefaults.url`: " + problem))
                }
                defaults.url = text
            } else {
                defaults.secret = text
            }
        }
        return .success(defaults)
    }
}

extension WebhookSignature {
    /// The HMAC key `format` uses for `secret`: its bytes, or for `standard-webhooks` the base64
    /// after `whsec_`, decoded (nil when it is not base64).
    static func key(for format: StubFormat.SigningFormat, secret: String) -> [UInt8]? {
        guard format == .standardWebhooks else { return Array(secret.utf8) }
        let encoded = secret.hasPrefix("whsec_") ? String(secret.dropFirst(6)) : secret
        return Data(base64Encoded: encoded).map { Array($0) }
    }

    /// This signing with `defaults`' secret when it gives none of its own; nil when neither has one
    /// (or the default is no `standard-webhooks` secret).
    func resolved(_ defaults: WebhookDefaults?) -> WebhookSignature? {
        if key != nil { return self }
        guard let secret = defaults?.secret, let key = Self.key(for: format, secret: secret) else { return nil }
        var signing = self
        signing.key = key
        return signing
    }
}
