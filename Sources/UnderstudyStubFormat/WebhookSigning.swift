/// A webhook's `signing`: the provider format its signature is computed in, the secret, and
/// optionally a mistake made on purpose (docs/webhooks.md). Start from a factory and pass it to
/// ``StubResponse/webhook(_:method:headers:json:body:delayMs:timeoutMs:signing:retry:)``.
public struct WebhookSigning: Sendable {
    /// The `signing` object, members in the order given.
    public private(set) var json: JSONValue

    /// A signing given as raw JSON (a `signing` object), kept exactly as given.
    public init(json: JSONValue) { self.json = json }

    private static func format(_ format: StubFormat.SigningFormat, _ secret: String) -> WebhookSigning {
        WebhookSigning(json: ["format": .string(format.rawValue), "secret": .string(secret)])
    }

    /// Signed in `format` with the session's default secret (`webhookDefaults.secret`, given when
    /// the session is created) rather than one in the stub.
    public static func sessionSecret(_ format: StubFormat.SigningFormat) -> WebhookSigning {
        WebhookSigning(json: ["format": .string(format.rawValue)])
    }

    /// Stripe's `Stripe-Signature` (`whsec_…` secret, used as written).
    public static func stripe(secret: String) -> WebhookSigning { format(.stripe, secret) }
    /// GitHub's `X-Hub-Signature-256`, with an `X-GitHub-Delivery` id.
    public static func github(secret: String) -> WebhookSigning { format(.github, secret) }
    /// Standard Webhooks (Svix): `webhook-id`, `webhook-timestamp`, `webhook-signature`; the
    /// secret is `whsec_` and base64.
    public static func standardWebhooks(secret: String) -> WebhookSigning { format(.standardWebhooks, secret) }
    /// Slack's `X-Slack-Signature` and `X-Slack-Request-Timestamp`.
    public static func slack(secret: String) -> WebhookSigning { format(.slack, secret) }
    /// An HMAC-SHA256 in `header`, over `signed`, written in `encoding` after `prefix`; with
    /// `timestamp.body` the timestamp goes in `timestampHeader`.
    public static func hmacSHA256(
        secret: String, header: String, signed: StubFormat.SignedContent = .body,
        encoding: StubFormat.SignatureEncoding = .hex, prefix: String = "", timestampHeader: String? = nil
    ) -> WebhookSigning {
        var signing = format(.hmacSHA256, secret)
        signing.json = signing.json.setting("header", to: .string(header))
            .setting("signed", to: .string(signed.rawValue)).setting("encoding", to: .string(encoding.rawValue))
            .setting("prefix", to: .string(prefix))
        if let timestampHeader { signing.json = signing.json.setting("timestampHeader", to: .string(timestampHeader)) }
        return signing
    }

    /// The same signing with its secret read from environment variable `name` when the stub loads
    /// (`secretEnv`), so the secret stays out of the stub file.
    public func secretFromEnvironment(_ name: String) -> WebhookSigning {
        guard case .object(let members) = json else { return self }
        return WebhookSigning(
            json: .object(
                members.map { $0.key == "secret" ? JSONMember("secretEnv", .string(name)) : $0 }))
    }

    /// The same signing, wrong on purpose as `mistake` says.
    public func mistake(_ mistake: StubFormat.SigningMistake) -> WebhookSigning {
        WebhookSigning(json: json.setting("mistake", to: .string(mistake.rawValue)))
    }
}

/// A webhook's `retry`: when a failed attempt (a non-2xx answer, a timeout, a refused or reset
/// connection) is tried again, on the world's clock. Every attempt carries the same event id.
public enum WebhookRetry: Sendable {
    /// Retries this many milliseconds after each failure, in order (`[60000, 300000]`: two retries).
    case delays([Double])
    /// A provider's published schedule (``StubFormat/RetryPreset``).
    case preset(StubFormat.RetryPreset)
    /// `attempts` retries, the first `initialMs` after the failure, each later one `factor` times
    /// the one before, at most `maxMs`.
    case exponential(initialMs: Double, factor: Double = 2, maxMs: Double? = nil, attempts: Int)

    /// As the stub format writes it.
    public var json: JSONValue {
        switch self {
        case .delays(let delays): return .array(delays.map { JSONValue($0) })
        case .preset(let preset): return .string(preset.rawValue)
        case .exponential(let initialMs, let factor, let maxMs, let attempts):
            var object: JSONValue = [
                "initialMs": JSONValue(initialMs), "factor": JSONValue(factor), "attempts": JSONValue(attempts),
            ]
            if let maxMs { object = object.setting("maxMs", to: JSONValue(maxMs)) }
            return object
        }
    }
}
